// Workload 4: `status` with `changesSince` on a 50,000-row log over 100 sessions – a tail poll
// returning ~10 events, and a full 200-event page – against the same read done raw; and the same
// two on node:sqlite (the library on node:sqlite against raw node:sqlite).
import type Database from 'better-sqlite3';

import { openLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { nodeSqliteSides, ratio, times, type BenchContext, type SideResult, type WorkloadResult } from '../harness/context.js';
import type { SideStats } from '../harness/stats.js';
import { rawReader } from '../raw/readChanges.js';
import { openNodeRawDb } from '../raw/nodeRawDb.js';
import { openRawDb } from '../raw/rawDb.js';
import { openSeedConnection, seedEvents } from '../raw/seed.js';
import { expectRecorded, humanTurn, logKey } from './keys.js';

const PAGE = 200;

/** Per session: the `changesSince` that leaves exactly `tail` events after it. */
export type TailSince = ReadonlyMap<string, number>;

function tailSinceFromDb(client: Database.Database, sessions: number, tail: number): TailSince {
  const st = client.prepare<[string, number], { sequence: number }>(
    'SELECT sequence FROM events WHERE session_key = ? ORDER BY sequence DESC LIMIT 1 OFFSET ?',
  );
  const out = new Map<string, number>();
  for (let s = 0; s < sessions; s++) out.set(logKey(s), st.get(logKey(s), tail)?.sequence ?? 0);
  return out;
}

/** The library's two read ops over a seeded facade; each checks its page size once. */
export function libraryReadOps(awareness: Awareness, sessions: number, since: TailSince, tail: number) {
  const check = (got: number, want: number, what: string): void => {
    if (got !== want) throw new Error(`${what}: expected ${want} events, got ${got}`);
  };
  return {
    tail: async (i: number): Promise<void> => {
      const key = logKey(i % sessions);
      const status = await awareness.status(key, { changesSince: since.get(key) ?? 0 });
      if (i === 0) check(status.stateChanges?.events.length ?? -1, tail, 'library tail poll');
    },
    page: async (i: number): Promise<void> => {
      const status = await awareness.status(logKey(i % sessions), { changesSince: 0 });
      if (i === 0) check(status.stateChanges?.events.length ?? -1, PAGE, 'library page');
    },
  };
}

/** Seeds a memory-store facade with the same log through `record` (it has no SQL to seed with). */
export async function seedMemoryLog(awareness: Awareness, rows: number, sessions: number, tail: number): Promise<TailSince> {
  const sequences = new Map<string, number[]>();
  const batch = 1000;
  for (let from = 0; from < rows; from += batch) {
    const calls = [];
    for (let i = from; i < Math.min(rows, from + batch); i++) calls.push(awareness.record(humanTurn(logKey(i % sessions))));
    for (const result of await Promise.all(calls)) {
      expectRecorded(result, 'memory seed');
      if (result.ok && 'event' in result) {
        const list = sequences.get(result.event.sessionKey) ?? [];
        list.push(result.event.sequence);
        sequences.set(result.event.sessionKey, list);
      }
    }
  }
  const out = new Map<string, number>();
  for (const [key, list] of sequences) out.set(key, list[list.length - 1 - tail] ?? 0);
  return out;
}

function pair(id: string, title: string, op: string, lib: SideStats, base: SideStats, node: readonly [SideStats, SideStats]): WorkloadResult {
  const p50 = ratio(lib.p50Us, base.p50Us);
  const p99 = ratio(lib.p99Us, base.p99Us);
  const column = nodeSqliteSides({ library: `status ${op}`, raw: `select ${op}` }, node[0], node[1], 1.2);
  const sides: SideResult[] = [{ side: 'library', op: `status ${op}`, ...lib }, { side: 'raw', op: `select ${op}`, ...base }, ...column.sides];
  return {
    id,
    title,
    sides,
    checks: [
      { target: 'library ≤ 1.2× raw at p50', measured: times(p50), met: p50 <= 1.2 },
      { target: 'library ≤ 1.2× raw at p99', measured: times(p99), met: p99 <= 1.2 },
      ...column.checks,
    ],
  };
}

/** The node:sqlite column: the store on node:sqlite over a seeded file, and raw node:sqlite over a file seeded the same. */
async function nodeSqliteReaders(ctx: BenchContext, seed: Parameters<typeof seedEvents>[1]) {
  const libPath = ctx.tempDb('w4-library-node');
  const store = openLibraryStore(libPath, 'node:sqlite');
  const seeder = openSeedConnection(libPath);
  seedEvents(seeder, seed);
  seeder.close();
  const awareness = await startOnStore(store, { maxRows: seed.count * 2 });
  const rawPath = ctx.tempDb('w4-raw-node');
  const seeded = openRawDb(rawPath);
  seedEvents(seeded.client, seed);
  seeded.client.close();
  const raw = openNodeRawDb(rawPath, { existing: true });
  return { awareness, read: rawReader(raw), close: async () => (await awareness.close(), raw.client.close()) };
}

export async function w4StatusReads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { sizes } = ctx;
  ctx.progress.update('4: seeding both logs', 0, 1);
  const seed = { count: sizes.logRows, sessionKeys: Array.from({ length: sizes.logSessions }, (_, s) => logKey(s)), appendedAt: Date.now() };

  // Library: the store migrates the file, the log is written beside it, then the facade starts.
  const libPath = ctx.tempDb('w4-library');
  const store = openLibraryStore(libPath);
  const seeder = openSeedConnection(libPath);
  seedEvents(seeder, seed);
  seeder.close();
  const awareness = await startOnStore(store, { maxRows: sizes.logRows * 2 });

  const raw = openRawDb(ctx.tempDb('w4-raw'));
  seedEvents(raw.client, seed);
  const since = tailSinceFromDb(raw.client, sizes.logSessions, sizes.tailEvents);
  const read = rawReader(raw);
  const lib = libraryReadOps(awareness, sizes.logSessions, since, sizes.tailEvents);
  const rawSidesOf = (reader: typeof read) => ({
    tail: (i: number): void => {
      const key = logKey(i % sizes.logSessions);
      const r = reader(key, since.get(key) ?? 0, PAGE);
      if (i === 0 && r.events.length !== sizes.tailEvents) throw new Error(`raw tail poll: got ${r.events.length} events`);
    },
    page: (i: number): void => {
      const r = reader(logKey(i % sizes.logSessions), 0, PAGE);
      if (i === 0 && r.events.length !== PAGE) throw new Error(`raw page: got ${r.events.length} events`);
    },
  });
  const rawSides = rawSidesOf(read);
  const node = await nodeSqliteReaders(ctx, seed);
  const nodeLib = libraryReadOps(node.awareness, sizes.logSessions, since, sizes.tailEvents);
  const nodeRaw = rawSidesOf(node.read);
  try {
    const run = async (label: string, n: number, sides: BenchSide[]) =>
      runPaired({ label, n, warmup: Math.min(500, n / 4), chunk: Math.max(100, n / 10), sides }, ctx.progress);
    const tail = await run(`4a tail poll (~${sizes.tailEvents} events)`, sizes.tailPolls, [
      { name: 'library', async: lib.tail },
      { name: 'raw', sync: rawSides.tail },
      { name: 'library node:sqlite', async: nodeLib.tail },
      { name: 'raw node:sqlite', sync: nodeRaw.tail },
    ]);
    const page = await run(`4b full ${PAGE}-event page`, sizes.pageReads, [
      { name: 'library', async: lib.page },
      { name: 'raw', sync: rawSides.page },
      { name: 'library node:sqlite', async: nodeLib.page },
      { name: 'raw node:sqlite', sync: nodeRaw.page },
    ]);
    const need = (s: SideStats | undefined): SideStats => {
      if (s === undefined) throw new Error('missing side');
      return s;
    };
    const shape = `${sizes.logRows} rows / ${sizes.logSessions} sessions`;
    return [
      pair('4a', `status tail poll, ${sizes.tailEvents} events (${shape})`, 'tail', need(tail['library']), need(tail['raw']), [need(tail['library node:sqlite']), need(tail['raw node:sqlite'])]),
      pair('4b', `status full ${PAGE}-event page (${shape})`, 'page', need(page['library']), need(page['raw']), [need(page['library node:sqlite']), need(page['raw node:sqlite'])]),
    ];
  } finally {
    await awareness.close();
    raw.client.close();
    await node.close();
  }
}

