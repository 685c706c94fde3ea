// Shared set-up of the append workloads (1, 2, 3, 7): a facade or a raw file with the
// watchers registered, and the per-op functions the runner calls.
import type { Awareness } from '../library/facade.js';
import { rawAppender } from '../raw/append.js';
import { openRawDb, type RawDb } from '../raw/rawDb.js';
import { seedCursors, type CursorSeed } from '../raw/seed.js';
import type { BenchContext } from '../harness/context.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey, watcherKey } from './keys.js';

/** Every (watcher, target) pair of the run: `watchers` per target over `sessions` targets. */
export function* watchPairs(sessions: number, watchers: number): Generator<{ watcher: string; target: string }> {
  for (let i = 0; i < sessions; i++) {
    for (let j = 0; j < watchers; j++) yield { watcher: watcherKey(i, j, sessions, watchers), target: targetKey(i) };
  }
}

/** A (watcher, target) pair to register. */
export interface WatchPair {
  readonly watcher: string;
  readonly target: string;
}

/** Registers the watchers through the facade (`sent` with `watch: true`), as a gateway does. */
export async function watchThroughFacade(awareness: Awareness, sessions: number, watchers: number): Promise<void> {
  await watchPairsThroughFacade(awareness, watchPairs(sessions, watchers));
}

/** Registers `pairs` through the facade (`sent` with `watch: true`). */
export async function watchPairsThroughFacade(awareness: Awareness, pairs: Iterable<WatchPair>): Promise<void> {
  const pending: Promise<{ watched: boolean }>[] = [];
  for (const { watcher, target } of pairs) {
    pending.push(awareness.sent({ senderKey: watcher, deliveredTo: target, watch: true }));
  }
  const results = await Promise.all(pending);
  if (results.some((r) => !r.watched)) throw new Error('a watcher was not registered');
}

/** A raw file with the same cursors `sent` creates: at the target's head (0), idle. */
export function openRawWithWatchers(ctx: BenchContext, name: string, watchers: number): RawDb {
  return openRawWithPairs(ctx, name, watchers > 0 ? watchPairs(ctx.sizes.sessions, watchers) : []);
}

/** A raw file with an idle cursor at 0 for each of `pairs`. */
export function openRawWithPairs(ctx: BenchContext, name: string, pairs: Iterable<WatchPair>): RawDb {
  const db = openRawDb(ctx.tempDb(name));
  const now = Date.now();
  const rows = function* (): Generator<CursorSeed> {
    for (const p of pairs) yield { ...p, acked: 0, notified: 0, material: 0, touchedAt: now };
  };
  seedCursors(db.client, rows());
  return db;
}

/** Op `i` on the library: one awaited `record` on target `i mod sessions`. */
export function libraryRecordOp(awareness: Awareness, sessions: number): (i: number) => Promise<void> {
  return async (i) => {
    expectRecorded(await awareness.record(humanTurn(targetKey(i % sessions))), 'library record');
  };
}

/** Op `i` on the raw baseline: one append transaction on target `i mod sessions`. */
export function rawRecordOp(db: RawDb, sessions: number): (i: number) => void {
  const append = rawAppender(db);
  return (i) => {
    append(rawHumanTurn(targetKey(i % sessions)), Date.now());
  };
}
