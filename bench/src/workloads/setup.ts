// What the workloads share: the session keys and record inputs (the same on every side), the watch
// pairs, registered through the facade or seeded into a raw file, the library's record op, and logs
// seeded beside either side.
import { openLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { idleCursor, openRawDb, SEED_EVENT, seedCursors, seedEvents, type EventSeed, type RawDb } from '../raw/rawDb.js';

/** Target session `i` (a nested sub-agent, as delegated work usually is). */
export const targetKey = (i: number): string => `agent:bench:subagent:t${i}`;

/** Watcher `slot` of target `i`: every watcher watches `slots` targets, every target has `slots` distinct watchers. */
export const watcherKey = (i: number, slot: number, sessions: number, slots: number): string => `agent:w${(i + slot * Math.floor(sessions / slots)) % sessions}:main`;

export const logKey = (i: number): string => `agent:log:s${i}`;

/** A `record` input: a human turn sent straight to `sessionKey` (it notifies the watchers). */
export const humanTurn = (sessionKey: string) => ({ sessionKey, kind: SEED_EVENT.kind, actorType: SEED_EVENT.actorType, summary: SEED_EVENT.summary, payload: { channel: SEED_EVENT.payload.channel } });

export const rawHumanTurn = (sessionKey: string) => ({ ...humanTurn(sessionKey), notifies: true });

/** Throws unless a `record` result is ok: a failing library side would measure the error path. */
export function expectRecorded(result: { readonly ok: boolean }, where: string): void {
  if (result.ok) return;
  const error = (result as { error?: unknown }).error;
  throw new Error(`${where}: record failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
}

export const keysOf = (sessions: number, key: (i: number) => string): string[] => Array.from({ length: sessions }, (_, i) => key(i));

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
