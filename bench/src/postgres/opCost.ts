// Where an operation's time goes: its queries by statement (one round trip each), the time spent
// awaiting their results, the rest of the wall time (this process), and this process's CPU time.
import pg from 'pg';

/** A named statement's name, else the first two words of the text. */
function labelOf(config: unknown): string {
  if (typeof config === 'string') return config.trim().split(/\s+/).slice(0, 2).join(' ');
  const c = config as { name?: unknown; text?: unknown } | null;
  return typeof c?.name === 'string' ? c.name : typeof c?.text === 'string' ? labelOf(c.text) : '?';
}

const now = (): bigint => process.hrtime.bigint();

/**
 * Wraps every `Client#query` (the pool's go through it too): `onQuery(label)` is called as each is
 * sent, and the function it returns when its result comes. Returns the function that unwraps it.
 */
export function watchQueries(onQuery: (label: string) => (() => void) | undefined): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function counted(this: unknown, ...args: unknown[]) {
    const done = onQuery(labelOf(args[0]));
    if (done === undefined) return original.apply(this, args);
    const callback = args[args.length - 1];
    if (typeof callback === 'function') {
      args[args.length - 1] = (...results: unknown[]) => (done(), (callback as (...r: unknown[]) => unknown)(...results));
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as { then?: unknown } | undefined;
    if (typeof result?.then === 'function') (result as Promise<unknown>).then(done, done);
    return result;
  };
  return () => {
    proto.query = original;
  };
}

/**
 * Runs `action` (`ops` operations, the divisor of every figure) with every query counted and timed
 * to its result: `inQueryUs` sums over its queries the time from `query()` to the result.
 */
export async function measureOpCost(ops: number, action: () => Promise<unknown>) {
  const counts = new Map<string, number>();
  let inQueryNs = 0n;
  const unwatch = watchQueries((label) => {
    counts.set(label, (counts.get(label) ?? 0) + 1);
    const issued = now();
    return () => {
      inQueryNs += now() - issued;
    };
  });
  const cpu0 = process.cpuUsage();
  const t0 = now();
  try {
    await action();
  } finally {
    unwatch();
  }
  const cpu = process.cpuUsage(cpu0);
  return { queries: counts, wallUs: Number(now() - t0) / 1e3, inQueryUs: Number(inQueryNs) / 1e3, cpuUs: cpu.user + cpu.system, ops };
}

export type OpCost = Awaited<ReturnType<typeof measureOpCost>>;

function mergeOpCosts(a: OpCost, b: OpCost): OpCost {
  const queries = new Map(a.queries);
  for (const [label, n] of b.queries) queries.set(label, (queries.get(label) ?? 0) + n);
  return { queries, wallUs: a.wallUs + b.wallUs, inQueryUs: a.inQueryUs + b.inQueryUs, cpuUs: a.cpuUs + b.cpuUs, ops: a.ops + b.ops };
}

/** Both sides' costs, each measured twice (`part` 0 and 1) in the order library, raw, raw, library, and merged per side. */
export async function costPair(measure: (side: 'library' | 'raw', part: 0 | 1) => Promise<OpCost>): Promise<{ library: OpCost; raw: OpCost }> {
  const [lib0, raw0, raw1, lib1] = [await measure('library', 0), await measure('raw', 0), await measure('raw', 1), await measure('library', 1)];
  return { library: mergeOpCosts(lib0, lib1), raw: mergeOpCosts(raw0, raw1) };
}

/** Ops per side (in two halves) of a cost pass. */
export const COUNTED_OPS = 100;

/** costPair of op indexes `from + part·perPart …` awaited one at a time (the library's every `libraryStep`-th: a call covering that many). */
export function costOfOps(from: number, library: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>, perPart = COUNTED_OPS / 2, libraryStep = 1) {
  const run = async (op: (i: number) => Promise<unknown>, step: number, part: number): Promise<void> => {
    for (let i = from + part * perPart; i < from + (part + 1) * perPart; i += step) await op(i);
  };
  return costPair((side, part) => measureOpCost(perPart, () => (side === 'library' ? run(library, libraryStep, part) : run(raw, 1, part))));
}

const perOp = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));
const us = (x: number): string => (!Number.isFinite(x) ? '—' : x >= 10_000 ? `${(x / 1000).toFixed(1)} ms` : `${x.toFixed(0)} µs`);

/** `4 queries (BEGIN 1, …)` per operation. */
export function describeQueries(cost: OpCost): string {
  const total = [...cost.queries.values()].reduce((a, b) => a + b, 0);
  const parts = [...cost.queries.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label} ${perOp(n / cost.ops)}`);
  return `${perOp(total / cost.ops)} queries (${parts.join(', ')})`;
}

/** Queries, then wall = awaiting + in node, per operation; no split when waits overlap. */
export function describeOpCost(cost: OpCost): string {
  const per = (x: number): string => us(x / cost.ops);
  const split =
    cost.inQueryUs <= cost.wallUs
      ? `${per(cost.wallUs)} = ${per(cost.inQueryUs)} awaiting results + ${per(cost.wallUs - cost.inQueryUs)} in node`
      : `${per(cost.wallUs)} wall, queries overlapping (${per(cost.inQueryUs)} of waits summed)`;
  return `${describeQueries(cost)}; ${split} (process CPU ${per(cost.cpuUs)})`;
}

export function costNote(id: string, per: string, cost: { library: OpCost; raw: OpCost }): string {
  return `${id} per ${per} (a separate pass of ${cost.library.ops} per side): library ${describeOpCost(cost.library)}; raw ${describeOpCost(cost.raw)}.`;
}
