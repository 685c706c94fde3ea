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

/** Runs `action` (`ops` operations, the divisor of every figure) with every query counted by label. */
export async function measureOpCost(ops: number, action: () => Promise<unknown>) {
  const queries = new Map<string, number>();
  const unwatch = watchQueries((label) => void queries.set(label, (queries.get(label) ?? 0) + 1));
  try {
    await action();
  } finally {
    unwatch();
  }
  return { queries, ops };
}

export type OpCost = Awaited<ReturnType<typeof measureOpCost>>;

/** Ops per side of a cost pass. */
export const COUNTED_OPS = 100;

/** Each side's queries over op indexes `from` … `from + ops - 1`, awaited one at a time (the library's every `libraryStep`-th: a call covering that many). */
export async function costOfOps(from: number, library: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>, ops = COUNTED_OPS, libraryStep = 1) {
  const pass = (op: (i: number) => Promise<unknown>, step: number): Promise<OpCost> =>
    measureOpCost(ops, async () => {
      for (let i = from; i < from + ops; i += step) await op(i);
    });
  return { library: await pass(library, libraryStep), raw: await pass(raw, 1) };
}

const perOp = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** `4 queries (BEGIN 1, …)` per operation. */
export function describeQueries(cost: OpCost): string {
  const total = [...cost.queries.values()].reduce((a, b) => a + b, 0);
  const parts = [...cost.queries.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label} ${perOp(n / cost.ops)}`);
  return `${perOp(total / cost.ops)} queries (${parts.join(', ')})`;
}

export function costNote(id: string, per: string, cost: { library: OpCost; raw: OpCost }): string {
  return `${id} queries per ${per} (a separate pass of ${cost.library.ops} per side): library ${describeQueries(cost.library)}; raw ${describeQueries(cost.raw)}.`;
}
