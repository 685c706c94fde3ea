// The read workloads. 4 and pg4: `status` with `changesSince` on a 50,000-row log over 100 sessions, a
// tail poll and a full 200-event page, against the same read done raw; and the same on node:sqlite, and
// over the PostgreSQL store against the store's read run raw. 11: `list` of 10 keys and of every key,
// over sessions with a head each, against the same read done raw (prepared `IN (?, …)` statements of
// 500 keys at most, one version per key in order).
import type Database from 'better-sqlite3';

import type { Awareness } from '../library/facade.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { rawPgReader } from '../postgres/rawPg.js';
import { openPgSides, pgLatencyPair, seedPgEvents, tailSinceFromPg, type PgBenchContext } from '../postgres/server.js';
import { openNodeRawDb, rawReader } from '../raw/rawDb.js';
import { keysOf, logKey, recordInBatches, seededLibrary, seededRawDb } from './setup.js';

const PAGE = 200;

/** Per session: the `changesSince` that leaves exactly `tail` events after it. */
type TailSince = ReadonlyMap<string, number>;

/** Checks the first op's page size: a wrong seed would measure a different read. */
const checkFirst = (i: number, got: number, want: number, what: string): void => {
  if (i === 0 && got !== want) throw new Error(`${what}: expected ${want} events, got ${got}`);
};

export function libraryReadOps(awareness: Awareness, sessions: number, since: TailSince, tail: number) {
  return {
    tail: async (i: number): Promise<void> => {
      const key = logKey(i % sessions);
      checkFirst(i, (await awareness.status(key, { changesSince: since.get(key) ?? 0 })).stateChanges?.events.length ?? -1, tail, 'library tail poll');
    },
    page: async (i: number): Promise<void> => checkFirst(i, (await awareness.status(logKey(i % sessions), { changesSince: 0 })).stateChanges?.events.length ?? -1, PAGE, 'library page'),
  };
}

type Read = { readonly events: readonly unknown[] };

/** The raw read ops over any reader (SQLite, node:sqlite, PostgreSQL, the memory reference). */
export function rawReadOps<R extends Read | Promise<Read>>(read: (key: string, since: number, limit: number) => R, sessions: number, since: TailSince, tail: number) {
  const after = <T>(r: R, then: (s: Read) => T): T | Promise<T> => (r instanceof Promise ? r.then(then) : then(r as Read));
  return {
    tail: (i: number) => {
      const key = logKey(i % sessions);
      return after(read(key, since.get(key) ?? 0, PAGE), (r) => checkFirst(i, r.events.length, tail, 'raw tail poll'));
    },
    page: (i: number) => after(read(logKey(i % sessions), 0, PAGE), (r) => checkFirst(i, r.events.length, PAGE, 'raw page')),
  };
}

/** Seeds a memory-store facade with the same log through `record`; returns each session's tail `changesSince`. */
export async function seedMemoryLog(awareness: Awareness, rows: number, sessions: number, tail: number): Promise<TailSince> {
  const sequences = new Map<string, number[]>();
  await recordInBatches(awareness, rows, (i) => logKey(i % sessions), (event) => sequences.set(event.sessionKey, [...(sequences.get(event.sessionKey) ?? []), event.sequence]));
  return new Map([...sequences].map(([key, list]) => [key, list[list.length - 1 - tail] ?? 0]));
}

export async function w4StatusReads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { sizes } = ctx;
  ctx.progress.update('4: seeding the logs', 0, 1);
  const seed = { count: sizes.logRows, sessionKeys: keysOf(sizes.logSessions, logKey), appendedAt: Date.now() };
  const awareness = await seededLibrary(ctx.tempDb('w4-library'), seed);
  const raw = seededRawDb(ctx.tempDb('w4-raw'), seed);
  const tailStart = raw.client.prepare<[string, number], { sequence: number }>('SELECT sequence FROM events WHERE session_key = ? ORDER BY sequence DESC LIMIT 1 OFFSET ?');
  const since: TailSince = new Map(seed.sessionKeys.map((key) => [key, tailStart.get(key, sizes.tailEvents)?.sequence ?? 0]));
  const nodeAwareness = await seededLibrary(ctx.tempDb('w4-library-node'), seed, 'node:sqlite');
  const nodeRawPath = ctx.tempDb('w4-raw-node');
  seededRawDb(nodeRawPath, seed).client.close();
  const nodeRaw = openNodeRawDb(nodeRawPath, { existing: true });
  const ops = (a: Awareness) => libraryReadOps(a, sizes.logSessions, since, sizes.tailEvents);
  const rawOps = (db: Parameters<typeof rawReader>[0]) => rawReadOps(rawReader(db), sizes.logSessions, since, sizes.tailEvents);
  const [lib, base, nodeLib, nodeBase] = [ops(awareness), rawOps(raw), ops(nodeAwareness), rawOps(nodeRaw)];
  try {
    const result = async (id: string, title: string, op: 'tail' | 'page', n: number): Promise<WorkloadResult> => {
      const sides = [
        { name: 'library', async: lib[op] },
        { name: 'raw', sync: base[op] },
        { name: 'library node:sqlite', async: nodeLib[op] },
        { name: 'raw node:sqlite', sync: nodeBase[op] },
      ] as const;
      const stats = await runPaired({ label: `${id} ${title}`, n, warmup: Math.min(500, n / 4), chunk: Math.max(100, n / 10), sides }, ctx.progress);
      return latencyResult(id, `${title} (${sizes.logRows} rows / ${sizes.logSessions} sessions)`, { library: `status ${op}`, raw: `select ${op}` }, stats, 1.2);
    };
    return [await result('4a', `status tail poll, ${sizes.tailEvents} events`, 'tail', sizes.tailPolls), await result('4b', `status full ${PAGE}-event page`, 'page', sizes.pageReads)];
  } finally {
    await awareness.close();
    await nodeAwareness.close();
    raw.client.close();
    nodeRaw.client.close();
  }
}

export async function pg4StatusReads(ctx: PgBenchContext): Promise<WorkloadResult[]> {
  const sizes = ctx.pg.sizes;
  ctx.progress.update('pg4: seeding both logs', 0, 1);
  const sessionKeys = keysOf(sizes.logSessions, logKey);
  const seed = { count: sizes.logRows, sessionKeys, appendedAt: Date.now() };
  const sides = await openPgSides(ctx, (pool) => seedPgEvents(pool, seed), { maxRows: sizes.logRows * 2 });
  try {
    const since = await tailSinceFromPg(sides.raw.pool, sessionKeys, sizes.tailEvents);
    const lib = libraryReadOps(sides.awareness, sizes.logSessions, since, sizes.tailEvents);
    const raw = rawReadOps(rawPgReader(sides.raw.pool), sizes.logSessions, since, sizes.tailEvents);
    const result = (id: string, title: string, op: 'tail' | 'page', n: number): Promise<WorkloadResult> =>
      pgLatencyPair(ctx, id, `${title} (${sizes.logRows} rows / ${sizes.logSessions} sessions)`, { n, warmup: Math.min(300, n / 4) }, { library: `status ${op}`, raw: `select ${op}` }, {
        library: lib[op],
        raw: async (i) => raw[op](i),
      });
    return [await result('pg4a', `status tail poll, ${sizes.tailEvents} events`, 'tail', sizes.tailPolls), await result('pg4b', `status full ${PAGE}-event page`, 'page', sizes.pageReads)];
  } finally {
    await sides.close();
  }
}

const FEW = 10;
const CHUNK = 500;

function rawLister(client: Database.Database): (keys: readonly string[]) => { sessionKey: string; stateVersion?: number }[] {
  const bySize = new Map<number, Database.Statement<string[], [string, number]>>();
  const statement = (n: number): Database.Statement<string[], [string, number]> => {
    const found = bySize.get(n) ?? client.prepare<string[], [string, number]>(`SELECT session_key, head FROM heads WHERE session_key IN (${Array(n).fill('?').join(', ')})`).raw(true);
    bySize.set(n, found);
    return found;
  };
  return (keys) => {
    const versions = new Map<string, number>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const chunk = keys.slice(i, i + CHUNK);
      for (const [key, head] of statement(chunk.length).all(...chunk)) versions.set(key, head);
    }
    return keys.map((key) => {
      const version = versions.get(key) ?? 0;
      return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
    });
  };
}

export async function w11List(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { listSessions: sessions, listFew, listAll } = ctx.sizes;
  ctx.progress.update('11: seeding both files', 0, 1);
  const keys = keysOf(sessions, logKey);
  const seed = { count: sessions, sessionKeys: keys, appendedAt: Date.now() };
  const awareness = await seededLibrary(ctx.tempDb('w11-library'), seed);
  const raw = seededRawDb(ctx.tempDb('w11-raw'), seed);
  const list = rawLister(raw.client);
  /** Ten keys spread over the key space, different each op. */
  const few = (i: number): string[] => Array.from({ length: FEW }, (_, j) => keys[(i * 7919 + j * 9973) % sessions] as string);
  const check = (got: readonly { stateVersion?: number }[], want: number, what: string): void => {
    if (got.length !== want || got.some((r) => r.stateVersion === undefined)) throw new Error(`${what}: expected ${want} versions`);
  };
  try {
    const run = async (id: string, title: string, n: number, ops: { library: string; raw: string }, sides: readonly [BenchSide, BenchSide]): Promise<WorkloadResult> => {
      const stats = await runPaired({ label: `${id} ${title}`, n, warmup: Math.max(2, Math.floor(n / 10)), chunk: Math.max(1, Math.floor(n / 10)), sides }, ctx.progress);
      return latencyResult(id, `${title} (${sessions} sessions)`, ops, stats, 1.5);
    };
    return [
      await run('11a', `list of ${FEW} keys`, listFew, { library: `list ${FEW} keys`, raw: `select ${FEW} keys` }, [
        { name: 'library', async: async (i) => check(await awareness.list(few(i)), FEW, 'library list') },
        { name: 'raw', sync: (i) => check(list(few(i)), FEW, 'raw list') },
      ]),
      await run('11b', 'list of all keys', listAll, { library: 'list all keys', raw: 'select all keys' }, [
        { name: 'library', async: async () => check(await awareness.list(keys), sessions, 'library list') },
        { name: 'raw', sync: () => check(list(keys), sessions, 'raw list') },
      ]),
    ];
  } finally {
    await awareness.close();
    raw.client.close();
  }
}
