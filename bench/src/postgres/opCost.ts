// Where an operation's time goes: the queries it sends (one round trip each, as node-postgres sends
// one at a time per connection) by statement, the time spent waiting for their results (network
// and server), the rest of the wall time (this process: validation, lanes, decoding, the driver),
// and this process's CPU time, so a lib/raw ratio can be explained by measurement.
import pg from 'pg';

/** Queries per statement label (a named statement's name, else the first words of the text). */
export type QueryCounts = ReadonlyMap<string, number>;

export interface OpCost {
  readonly queries: QueryCounts;
  /** Wall time of the action, µs. */
  readonly wallUs: number;
  /** Sum over its queries of the time from `query()` to the result, µs (the ops run one query at a time). */
  readonly inQueryUs: number;
  /** User + system CPU time of this process over the action, µs. */
  readonly cpuUs: number;
  /** Operations the action ran (the divisor of every figure). */
  readonly ops: number;
}

function labelOf(config: unknown): string {
  if (typeof config === 'string') return config.trim().split(/\s+/).slice(0, 2).join(' ');
  const c = config as { name?: unknown; text?: unknown } | null;
  if (typeof c?.name === 'string') return c.name;
  return typeof c?.text === 'string' ? labelOf(c.text) : '?';
}

const now = (): bigint => process.hrtime.bigint();

/**
 * Runs `action` (`ops` operations) with every `Client#query` counted and timed to its result
 * (the pool's queries go through it too, with a callback), and its wall and CPU time taken.
 */
export async function measureOpCost(ops: number, action: () => Promise<unknown>): Promise<OpCost> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const counts = new Map<string, number>();
  let inQueryNs = 0n;
  proto.query = function counted(this: unknown, ...args: unknown[]) {
    const label = labelOf(args[0]);
    counts.set(label, (counts.get(label) ?? 0) + 1);
    const issued = now();
    const done = (): void => {
      inQueryNs += now() - issued;
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        done();
        return (callback as (...r: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as { then?: unknown } | undefined;
    if (typeof result?.then === 'function') (result as Promise<unknown>).then(done, done);
    return result;
  };
  const cpu0 = process.cpuUsage();
  const t0 = now();
  try {
    await action();
  } finally {
    proto.query = original;
  }
  const wallUs = Number(now() - t0) / 1e3;
  const cpu = process.cpuUsage(cpu0);
  return { queries: counts, wallUs, inQueryUs: Number(inQueryNs) / 1e3, cpuUs: cpu.user + cpu.system, ops };
}

/** Two passes' costs as one. */
export function mergeOpCosts(a: OpCost, b: OpCost): OpCost {
  const queries = new Map(a.queries);
  for (const [label, n] of b.queries) queries.set(label, (queries.get(label) ?? 0) + n);
  return { queries, wallUs: a.wallUs + b.wallUs, inQueryUs: a.inQueryUs + b.inQueryUs, cpuUs: a.cpuUs + b.cpuUs, ops: a.ops + b.ops };
}

/**
 * Both sides' costs, each side run twice (`part` 0 and 1, `opsPerCall` ops each) in the order
 * library, raw, raw, library, so a load change during the pass hits both sides alike.
 */
export async function measureCostPair(
  opsPerCall: number,
  library: (part: 0 | 1) => Promise<unknown>,
  raw: (part: 0 | 1) => Promise<unknown>,
): Promise<{ library: OpCost; raw: OpCost }> {
  const lib0 = await measureOpCost(opsPerCall, () => library(0));
  const raw0 = await measureOpCost(opsPerCall, () => raw(0));
  const raw1 = await measureOpCost(opsPerCall, () => raw(1));
  const lib1 = await measureOpCost(opsPerCall, () => library(1));
  return { library: mergeOpCosts(lib0, lib1), raw: mergeOpCosts(raw0, raw1) };
}

const perOpNumber = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

const us = (x: number): string => (!Number.isFinite(x) ? '—' : x >= 10_000 ? `${(x / 1000).toFixed(1)} ms` : `${x.toFixed(0)} µs`);

/** `4 queries (BEGIN 1, …)`, per operation. */
export function describeQueries(cost: OpCost): string {
  let total = 0;
  for (const n of cost.queries.values()) total += n;
  const parts = [...cost.queries.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label} ${perOpNumber(n / cost.ops)}`);
  return `${perOpNumber(total / cost.ops)} queries (${parts.join(', ')})`;
}

/**
 * `4 queries (BEGIN 1, …); 620 µs = 540 µs awaiting results + 80 µs in node (process CPU 300 µs)`,
 * per operation. When pipelined queries overlap (the PostgreSQL store sends a statement before the
 * previous one is answered), their summed waits exceed the wall time and no split is printed.
 */
export function describeOpCost(cost: OpCost): string {
  const per = (x: number): string => us(x / cost.ops);
  const split =
    cost.inQueryUs <= cost.wallUs
      ? `${per(cost.wallUs)} = ${per(cost.inQueryUs)} awaiting results + ${per(cost.wallUs - cost.inQueryUs)} in node`
      : `${per(cost.wallUs)} wall, queries pipelined (their waits overlap: ${per(cost.inQueryUs)} summed)`;
  return `${describeQueries(cost)}; ${split} (process CPU ${per(cost.cpuUs)})`;
}

/** The note comparing both sides: `pg1 per record (a separate pass of 100 per side): library …; raw ….` */
export function costNote(id: string, per: string, cost: { library: OpCost; raw: OpCost }): string {
  return `${id} per ${per} (a separate pass of ${cost.library.ops} per side): library ${describeOpCost(cost.library)}; raw ${describeOpCost(cost.raw)}.`;
}
