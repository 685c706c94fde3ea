// Shared set-up of the append workloads: the watch pairs, registered through the facade or seeded
// into a raw file, the per-op functions the runner calls, and logs seeded beside either side.
import { openLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { openRawDb, type RawDb } from '../raw/rawDb.js';
import { idleCursor, seedCursors, seedEvents, type EventSeed } from '../raw/seed.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey, watcherKey } from './keys.js';

export type WatchPair = { readonly watcher: string; readonly target: string };

export function* watchPairs(sessions: number, watchers: number): Generator<WatchPair> {
  for (let i = 0; i < sessions; i++) for (let j = 0; j < watchers; j++) yield { watcher: watcherKey(i, j, sessions, watchers), target: targetKey(i) };
}

/** Registers `pairs` through the facade (`sent` with `watch: true`), as a gateway does. */
export async function watchThroughFacade(awareness: Awareness, pairs: Iterable<WatchPair>): Promise<void> {
  const results = await Promise.all([...pairs].map(({ watcher, target }) => awareness.sent({ senderKey: watcher, deliveredTo: target, watch: true })));
  if (results.some((r) => !r.watched)) throw new Error('a watcher was not registered');
}

/** A raw file at `path` with the cursors `sent` creates for `pairs`. */
export function openRawWithPairs(path: string, pairs: Iterable<WatchPair>): RawDb {
  const db = openRawDb(path);
  const now = Date.now();
  seedCursors(db.client, [...pairs].map((p) => idleCursor(p, now)));
  return db;
}

export const libraryRecordOp = (awareness: Awareness, sessions: number) => async (i: number): Promise<void> => {
  expectRecorded(await awareness.record(humanTurn(targetKey(i % sessions))), 'library record');
};

/** Op `i` of workloads 3 and pg3: `inFlight` calls of `record` issued at once, then awaited together. */
export const libraryBurstOp = (awareness: Awareness, inFlight: number, sessions: number) => async (i: number): Promise<void> => {
  const calls = [];
  for (let k = 0; k < inFlight; k++) calls.push(awareness.record(humanTurn(targetKey((i + k) % sessions))));
  for (const result of await Promise.all(calls)) expectRecorded(result, 'library record');
};

/** Workloads 3 and pg3: `burst` against raw single appends, by throughput only (one library op is a burst); with `minGain`, the target on it. */
export async function inFlightComparison(ctx: BenchContext, id: string, run: { n: number; warmup: number; chunk: number; inFlight: number }, burst: (i: number) => Promise<void>, raw: BenchSide, minGain?: number): Promise<WorkloadResult> {
  const title = `${run.inFlight} records in flight at once (group commit)`;
  const [lib, base] = await runPaired({ label: `${id} ${title}`, n: run.n, warmup: run.warmup, chunk: run.chunk, sides: [{ name: 'library', opsPerCall: run.inFlight, async: burst }, raw] }, ctx.progress);
  const gain = ratio(lib.opsPerSec, base.opsPerSec);
  const checks = minGain === undefined ? [] : [{ target: `library ≥ ${minGain}× raw single-append throughput`, measured: times(gain), met: gain >= minGain }];
  return { id, title, sides: [{ side: 'library', op: `burst of ${run.inFlight}`, ...lib }, { side: 'raw', op: 'single append tx', ...base }], checks, latencyComparable: false };
}

/** Op `i` on the raw baseline (`append`: better-sqlite3's or node:sqlite's): one append transaction on target `i mod sessions`. */
export const rawRecordOp = (append: (record: ReturnType<typeof rawHumanTurn>, now: number) => number, sessions: number) => (i: number): void => void append(rawHumanTurn(targetKey(i % sessions)), Date.now());

/** Calls `record` in flight on `count` inputs, 1,000 at a time (seeding a log through the facade). */
export async function recordInBatches(awareness: Awareness, count: number, keyOf: (i: number) => string, onEach?: (event: { sessionKey: string; sequence: number }) => void): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    const calls = [];
    for (let i = from; i < Math.min(count, from + 1000); i++) calls.push(awareness.record(humanTurn(keyOf(i))));
    for (const result of await Promise.all(calls)) {
      expectRecorded(result, 'seed');
      if (result.ok && 'event' in result) onEach?.(result.event);
    }
  }
}

/** The facade over a SQLite file seeded by SQL beside the store before it starts, with room for twice the seed. */
export function seededLibrary(path: string, seed: EventSeed, driver?: 'node:sqlite'): Promise<Awareness> {
  const store = openLibraryStore(path, driver);
  const seeder = openRawDb(path, { existing: true }).client;
  seedEvents(seeder, seed);
  seeder.close();
  return startOnStore(store, { maxRows: seed.count * 2 });
}

export function seededRawDb(path: string, seed: EventSeed): RawDb {
  const db = openRawDb(path);
  seedEvents(db.client, seed);
  return db;
}
