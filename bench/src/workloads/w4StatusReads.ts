// Workload 4: `status` with `changesSince` on a 50,000-row log over 100 sessions, a tail poll and a
// full 200-event page, against the same read done raw; and the same on node:sqlite.
import type Database from 'better-sqlite3';

import { openLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { runPaired, sidesOf, type BenchSide } from '../harness/measure.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { rawReader, type RawStatus } from '../raw/readChanges.js';
import { openNodeRawDb } from '../raw/nodeRawDb.js';
import { openRawDb } from '../raw/rawDb.js';
import { seedEvents, seedFile, type EventSeed } from '../raw/seed.js';
import { recordInBatches } from './appendSetup.js';
import { keysOf, logKey } from './keys.js';

export const PAGE = 200;

/** Per session: the `changesSince` that leaves exactly `tail` events after it. */
export type TailSince = ReadonlyMap<string, number>;

function tailSinceFromDb(client: Database.Database, sessions: number, tail: number): TailSince {
  const st = client.prepare<[string, number], { sequence: number }>('SELECT sequence FROM events WHERE session_key = ? ORDER BY sequence DESC LIMIT 1 OFFSET ?');
  return new Map(keysOf(sessions, logKey).map((key) => [key, st.get(key, tail)?.sequence ?? 0]));
}

/** Checks the first op's page size: a wrong seed would measure a different read. */
const checkFirst = (i: number, got: number, want: number, what: string): void => {
  if (i === 0 && got !== want) throw new Error(`${what}: expected ${want} events, got ${got}`);
};

/** The library's two read ops over a seeded facade. */
export function libraryReadOps(awareness: Awareness, sessions: number, since: TailSince, tail: number) {
  return {
    tail: async (i: number): Promise<void> => {
      const key = logKey(i % sessions);
      checkFirst(i, (await awareness.status(key, { changesSince: since.get(key) ?? 0 })).stateChanges?.events.length ?? -1, tail, 'library tail poll');
    },
    page: async (i: number): Promise<void> => checkFirst(i, (await awareness.status(logKey(i % sessions), { changesSince: 0 })).stateChanges?.events.length ?? -1, PAGE, 'library page'),
  };
}

/** The raw read ops over any reader (SQLite, node:sqlite, PostgreSQL). */
export function rawReadOps<R extends RawStatus | Promise<RawStatus>>(read: (key: string, since: number, limit: number) => R, sessions: number, since: TailSince, tail: number) {
  const check = (i: number, r: RawStatus, want: number, what: string): void => checkFirst(i, r.events.length, want, what);
  const after = <T>(r: R, then: (s: RawStatus) => T): T | Promise<T> => (r instanceof Promise ? r.then(then) : then(r as RawStatus));
  return {
    tail: (i: number) => {
      const key = logKey(i % sessions);
      return after(read(key, since.get(key) ?? 0, PAGE), (r) => check(i, r, tail, 'raw tail poll'));
    },
    page: (i: number) => after(read(logKey(i % sessions), 0, PAGE), (r) => check(i, r, PAGE, 'raw page')),
  };
}

/** Seeds a memory-store facade with the same log through `record`; returns each session's tail `changesSince`. */
export async function seedMemoryLog(awareness: Awareness, rows: number, sessions: number, tail: number): Promise<TailSince> {
  const sequences = new Map<string, number[]>();
  await recordInBatches(awareness, rows, (i) => logKey(i % sessions), (event) => sequences.set(event.sessionKey, [...(sequences.get(event.sessionKey) ?? []), event.sequence]));
  return new Map([...sequences].map(([key, list]) => [key, list[list.length - 1 - tail] ?? 0]));
}

/** The facade over a SQLite file seeded by SQL beside the store before it starts. */
async function seededLibrary(path: string, seed: EventSeed, driver?: 'node:sqlite'): Promise<Awareness> {
  const store = openLibraryStore(path, driver);
  seedFile(path, seed);
  return startOnStore(store, { maxRows: seed.count * 2 });
}

export async function w4StatusReads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { sizes } = ctx;
  ctx.progress.update('4: seeding the logs', 0, 1);
  const seed = { count: sizes.logRows, sessionKeys: keysOf(sizes.logSessions, logKey), appendedAt: Date.now() };
  const awareness = await seededLibrary(ctx.tempDb('w4-library'), seed);
  const raw = openRawDb(ctx.tempDb('w4-raw'));
  seedEvents(raw.client, seed);
  const since = tailSinceFromDb(raw.client, sizes.logSessions, sizes.tailEvents);
  const nodeAwareness = await seededLibrary(ctx.tempDb('w4-library-node'), seed, 'node:sqlite');
  const nodeRawPath = ctx.tempDb('w4-raw-node');
  const seeded = openRawDb(nodeRawPath);
  seedEvents(seeded.client, seed);
  seeded.client.close();
  const nodeRaw = openNodeRawDb(nodeRawPath, { existing: true });
  const ops = (a: Awareness) => libraryReadOps(a, sizes.logSessions, since, sizes.tailEvents);
  const rawOps = (db: Parameters<typeof rawReader>[0]) => rawReadOps(rawReader(db), sizes.logSessions, since, sizes.tailEvents);
  const sides = { library: ops(awareness), raw: rawOps(raw), nodeLibrary: ops(nodeAwareness), nodeRaw: rawOps(nodeRaw) };
  try {
    const run = (label: string, n: number, which: 'tail' | 'page') => {
      const list: BenchSide[] = [
        { name: 'library', async: sides.library[which] },
        { name: 'raw', sync: sides.raw[which] },
        { name: 'library node:sqlite', async: sides.nodeLibrary[which] },
        { name: 'raw node:sqlite', sync: sides.nodeRaw[which] },
      ];
      return runPaired({ label, n, warmup: Math.min(500, n / 4), chunk: Math.max(100, n / 10), sides: list }, ctx.progress);
    };
    const shape = `${sizes.logRows} rows / ${sizes.logSessions} sessions`;
    const result = async (id: string, title: string, op: 'tail' | 'page', n: number): Promise<WorkloadResult> => {
      const stats = await run(`${id} ${title}`, n, op);
      const [lib, base, nodeLib, nodeBase] = sidesOf(stats, 'library', 'raw', 'library node:sqlite', 'raw node:sqlite');
      return latencyResult(id, `${title} (${shape})`, { library: `status ${op}`, raw: `select ${op}` }, lib, base, 1.2, [nodeLib, nodeBase]);
    };
    return [await result('4a', `status tail poll, ${sizes.tailEvents} events`, 'tail', sizes.tailPolls), await result('4b', `status full ${PAGE}-event page`, 'page', sizes.pageReads)];
  } finally {
    await awareness.close();
    await nodeAwareness.close();
    raw.client.close();
    nodeRaw.client.close();
  }
}
