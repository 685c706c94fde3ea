// An operation's queries by statement (one round trip each), counted as they are sent.
import pg from 'pg';

/** A named statement's name, else the first two words of the text. */
function labelOf(config: unknown): string {
  if (typeof config === 'string') return config.trim().split(/\s+/).slice(0, 2).join(' ');
  const c = config as { name?: unknown; text?: unknown } | null;
  return typeof c?.name === 'string' ? c.name : typeof c?.text === 'string' ? labelOf(c.text) : '?';
}

/** Calls `onQuery(label)` as each `Client#query` is sent (the pool's go through it too); returns the function that unwraps it. */
export function watchQueries(onQuery: (label: string) => void): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function counted(this: unknown, ...args: unknown[]) {
    onQuery(labelOf(args[0]));
    return original.apply(this, args);
  };
  return () => {
    proto.query = original;
  };
}

/** A pass's queries by label, over `ops` operations (the divisor of every figure). */
export type OpCost = { readonly queries: ReadonlyMap<string, number>; readonly ops: number };

/** Ops per side of a cost pass. */
export const COUNTED_OPS = 100;

/** Each side's queries over op indexes `from` … `from + COUNTED_OPS - 1`, awaited one at a time. */
export async function costOfOps(from: number, library: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>): Promise<{ library: OpCost; raw: OpCost }> {
  const pass = async (op: (i: number) => Promise<unknown>): Promise<OpCost> => {
    const queries = new Map<string, number>();
    const unwatch = watchQueries((label) => void queries.set(label, (queries.get(label) ?? 0) + 1));
    try {
      for (let i = from; i < from + COUNTED_OPS; i++) await op(i);
    } finally {
      unwatch();
    }
    return { queries, ops: COUNTED_OPS };
  };
  return { library: await pass(library), raw: await pass(raw) };
}

const perOp = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** `4 queries (BEGIN 1, …)` per operation. */
export function describeQueries(cost: OpCost): string {
  const total = [...cost.queries.values()].reduce((a, b) => a + b, 0);
  const parts = [...cost.queries.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label} ${perOp(n / cost.ops)}`);
  return `${perOp(total / cost.ops)} queries (${parts.join(', ')})`;
}
