// An operator's overview of a store: its counts and a bounded part of its heads and cursors.
import type { CursorRow } from '../log/append.js';
import type { HeadRow } from './stateStore.port.js';
import { describeValue } from '../input/validation.js';

/** How much of the store one overview lists. */
export interface OverviewLimits {
  readonly heads: number;
  readonly cursors: number;
}

/** The store's counts, over every row. */
export interface StoreCounts {
  /** Sessions with a head row (every key ever recorded, deleted ones included as tombstones). */
  readonly sessions: number;
  readonly cursors: number;
  /** Cursors with a notice pending (material above acked). */
  readonly pendingPairs: number;
  /** Pending cursors that hold a notice (notified above acked); a restart scan queues the rest. */
  readonly pendingNotices: number;
  readonly highestHead: number;
  /** Sessions whose history retention (or a delete) has cut: prune watermark above 0. */
  readonly prunedSessions: number;
}

/** See `OverviewSource.readOverview`. */
export interface StoreOverview {
  readonly counts: StoreCounts;
  /** The first `limits.heads` head rows, by session key (as `readHeads()` orders them). */
  readonly heads: readonly HeadRow[];
  /** At most `limits.cursors` cursors: the pending ones (material above acked) by watcher then target, then the others in that order. */
  readonly cursors: readonly CursorRow[];
}

/** Offered by stores that can count and list their overview without reading every row. */
export interface OverviewSource {
  /** The store's overview, as `overviewOf` states it. */
  readOverview(limits: OverviewLimits): Promise<StoreOverview>;
}

export function isOverviewSource(store: object): store is OverviewSource {
  return typeof (store as Partial<OverviewSource>).readOverview === 'function';
}

/** Throws unless both limits are non-negative integers; the message names the field. */
export function assertOverviewLimits(limits: OverviewLimits): void {
  for (const field of ['heads', 'cursors'] as const) {
    const value: unknown = (limits as Partial<OverviewLimits> | undefined)?.[field];
    if (!Number.isSafeInteger(value) || (value as number) < 0) throw new RangeError(`invalid limits.${field}: expected a non-negative integer, got ${describeValue(value)}`);
  }
}

/** The overview over every head row (by session key) and every cursor (by pair). */
export function overviewOf(heads: readonly HeadRow[], cursors: readonly CursorRow[], limits: OverviewLimits): StoreOverview {
  assertOverviewLimits(limits);
  const pending = cursors.filter((row) => row.material > row.acked);
  const listed = [...pending, ...cursors.filter((row) => row.material <= row.acked)].slice(0, limits.cursors);
  const counts: StoreCounts = {
    sessions: heads.length,
    cursors: cursors.length,
    pendingPairs: pending.length,
    pendingNotices: pending.filter((row) => row.notified > row.acked).length,
    highestHead: heads.reduce((highest, row) => Math.max(highest, row.head), 0),
    prunedSessions: heads.filter((row) => row.pruneWatermark > 0).length,
  };
  return { counts, heads: heads.slice(0, limits.heads), cursors: listed };
}
