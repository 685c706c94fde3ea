// The pure planners of the store operations on cursors (append has its own, append.ts): each
// takes the rows a store read under its write lock and returns the rows to write, the journal
// entries to append in the same transaction, and the outcome. An adapter is: lock and read,
// plan, write. No adapter steps a cursor itself.
import { fromWatermarks, heldNotice, noticeFor, stepCursor, toWatermarks, type CursorCommand, type EndReason } from './cursor.js';
import { journalRecords, type CursorJournalEntry, type CursorJournalRecord } from './journal.js';
import { journalWindowEnd } from './journalWindow.js';
import type { CursorRow } from '../log/append.js';
import type { Notice, NoticeTextOf } from '../notice.js';
import type { CursorPair, DrainAck, DrainOutcome, ReadAckOutcome, ReadAckRequest, WatchRequest } from '../ports/stateStore.port.js';
import type { Sequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';

// --- shared --------------------------------------------------------------------------------

/** What a writing plan asks a store to do, in one transaction. */
export interface CursorPlan {
  /** Cursor rows to write (insert or update by pair), each at most once, touched at the operation's time. */
  readonly cursorWrites: readonly CursorRow[];
  /** Journal entries to append, in this order (positions follow it). */
  readonly journal: readonly CursorJournalRecord[];
}

/** The port's pair order: by watcher, then target (code-unit order, as SQL `ORDER BY` on text with a binary collation). */
export function comparePairs(a: { readonly watcher: string; readonly target: string }, b: { readonly watcher: string; readonly target: string }): number {
  if (a.watcher !== b.watcher) return a.watcher < b.watcher ? -1 : 1;
  return a.target < b.target ? -1 : a.target > b.target ? 1 : 0;
}

const pairKey = (watcher: string, target: string): string => `${watcher}\u0000${target}`;

type Owns = (watcher: SessionKey) => boolean;

/** A cursor that may hold a notice: material above acked (`fromWatermarks` reads it as pending). */
const isPending = (row: CursorRow): boolean => row.material > row.acked;

// --- watch ---------------------------------------------------------------------------------

export interface WatchPlanInput {
  readonly request: WatchRequest;
  /** The pair's cursor row, read under the write lock, or undefined when it has none. */
  readonly existing: CursorRow | undefined;
  /** The target's head (0 when it has no head row), read under the same lock. */
  readonly head: Sequence;
}

export interface WatchPlan extends CursorPlan {
  readonly created: boolean;
}

/**
 * An explicit watch: a pair without a cursor gets one at the target's head (one `watch_started`
 * via watch), a pair with one keeps it and nothing is written. There is no impossible case:
 * deciding a watch on a pair without a cursor always starts one, so `created` is exactly
 * "the pair had no cursor" in every store.
 *
 * @example const plan = planWatch({ request, existing: rowOrUndefined, head });
 */
export function planWatch(input: WatchPlanInput): WatchPlan {
  const { request, existing } = input;
  const before = existing === undefined ? undefined : fromWatermarks(existing);
  const step = stepCursor({ type: 'watch', at: input.head, via: 'watch' }, before);
  if (!step.changed || step.cursor === undefined) return { created: false, cursorWrites: [], journal: [] };
  return {
    created: true,
    cursorWrites: [{ watcher: request.watcher, target: request.target, ...toWatermarks(step.cursor), touchedAt: request.now }],
    journal: journalRecords(request.watcher, request.target, before, step.events, request.now),
  };
}

// --- drain ---------------------------------------------------------------------------------

export interface DrainPlanInput {
  readonly watcher: SessionKey;
  readonly acks: readonly DrainAck[];
  /** The watcher's cursor rows on the acked targets, read under the write lock (others are ignored). */
  readonly cursors: readonly CursorRow[];
  readonly now: number;
}

export interface DrainPlan extends CursorPlan {
  /** One outcome per ack, in ack order. */
  readonly outcomes: readonly DrainOutcome[];
}

/**
 * A drain: each ack is the compare-and-swap `drain` command on its cursor, in order (a later ack
 * of the same target sees an earlier one). `acked` (with `reopened` when more had arrived:
 * `notice_reopened`, else `notice_acknowledged`) or `stale` (with the `pending` notice to offer
 * again when the cursor is pending at another watermark; nothing for an idle or missing cursor).
 */
export function planDrain(input: DrainPlanInput): DrainPlan {
  const { watcher, now } = input;
  const rows = new Map<SessionKey, CursorRow>();
  for (const row of input.cursors) if (row.watcher === watcher) rows.set(row.target, row);
  const journal: CursorJournalRecord[] = [];
  const written = new Map<SessionKey, CursorRow>();
  const outcomes = input.acks.map((ack): DrainOutcome => {
    const row = rows.get(ack.target);
    const before = row === undefined ? undefined : fromWatermarks(row);
    const step = stepCursor({ type: 'drain', notified: ack.notified }, before);
    if (step.changed && step.cursor !== undefined) {
      const next: CursorRow = { watcher, target: ack.target, ...toWatermarks(step.cursor), touchedAt: now };
      rows.set(ack.target, next);
      written.set(ack.target, next);
    }
    journal.push(...journalRecords(watcher, ack.target, before, step.events, now));
    const notice = noticeFor(watcher, ack.target, step);
    if (step.drain === 'acked' && step.cursor !== undefined) {
      return { target: ack.target, result: 'acked', acked: step.cursor.acked, ...(notice !== undefined ? { reopened: notice } : {}) };
    }
    return { target: ack.target, result: 'stale', ...(notice !== undefined ? { pending: notice } : {}) };
  });
  return { outcomes, cursorWrites: [...written.values()], journal };
}

// --- a reconcile that acknowledges -------------------------------------------------------------

export interface ReadAckPlanInput {
  readonly request: ReadAckRequest;
  /** The pair's cursor row, read under the write lock, or undefined when it has none. */
  readonly existing: CursorRow | undefined;
}

export interface ReadAckPlan extends CursorPlan {
  readonly outcome: ReadAckOutcome;
}

/**
 * A reconcile that reached the head: the `read` command on the pair's cursor. When the read
 * started at or below acked and ended above it, the cursor is acknowledged up to `through`
 * (`notice_read`): idle there, or, when changes had arrived after the read (material above
 * `through`), with one `reopen` notice covering them. Otherwise nothing is written.
 *
 * @example const plan = planReadAck({ request: { watcher, target, since, through, now }, existing });
 */
export function planReadAck(input: ReadAckPlanInput): ReadAckPlan {
  const { request, existing } = input;
  const before = existing === undefined ? undefined : fromWatermarks(existing);
  const step = stepCursor({ type: 'read', since: request.since, through: request.through }, before);
  if (step.events.length === 0 || step.cursor === undefined) return { outcome: { acknowledged: false }, cursorWrites: [], journal: [] };
  const reopened = noticeFor(request.watcher, request.target, step);
  return {
    outcome: { acknowledged: true, acked: step.cursor.acked, ...(reopened !== undefined ? { reopened } : {}) },
    cursorWrites: [{ watcher: request.watcher, target: request.target, ...toWatermarks(step.cursor), touchedAt: request.now }],
    journal: journalRecords(request.watcher, request.target, before, step.events, request.now),
  };
}

// --- the restart scan ------------------------------------------------------------------------

export interface RestartScanPlanInput {
  /** The cursors to scan (a store may pass only the pending ones: material > acked), read under the write lock. */
  readonly cursors: readonly CursorRow[];
  /** Only cursors whose watcher passes it are scanned, when given. */
  readonly owns?: Owns;
  readonly now: number;
  /**
   * Builds the notices' texts; noticeText when absent. A store scanning in chunks passes one
   * noticeTextPerTarget for the whole scan, so the notices on a target share their text.
   */
  readonly textOf?: NoticeTextOf;
}

export interface RestartScanPlan extends CursorPlan {
  /** One `recovered` notice per pending pair, ordered by watcher then target. */
  readonly notices: readonly Notice[];
}

/**
 * The restart scan, run once when a gateway starts: every pending cursor (material > acked, of an
 * owned watcher) has its notified raised to material (`notice_recovered`, written only when that
 * changed it) and offers its notice again. Idempotent: a second scan writes nothing.
 */
export function planRestartScan(input: RestartScanPlanInput): RestartScanPlan {
  const scanned = input.cursors.filter((row) => isPending(row) && (input.owns === undefined || input.owns(row.watcher))).sort(comparePairs);
  const cursorWrites: CursorRow[] = [];
  const journal: CursorJournalRecord[] = [];
  const notices: Notice[] = [];
  for (const row of scanned) {
    const before = fromWatermarks(row);
    const step = stepCursor({ type: 'restartScan' }, before);
    if (step.changed && step.cursor !== undefined) cursorWrites.push({ ...row, ...toWatermarks(step.cursor), touchedAt: input.now });
    journal.push(...journalRecords(row.watcher, row.target, before, step.events, input.now));
    const notice = noticeFor(row.watcher, row.target, step, input.textOf);
    if (notice !== undefined) notices.push(notice);
  }
  return { cursorWrites, journal, notices };
}

// --- held notices (the owner's re-read) --------------------------------------------------------

export interface HeldNoticesInput {
  /** The cursors to read (a store may pass only the pending ones). */
  readonly cursors: readonly CursorRow[];
  /** Only cursors whose watcher passes it, when given. */
  readonly owns?: Owns;
  /** Only cursors on these targets, when given (each once; an empty list gives none). */
  readonly targets?: readonly SessionKey[];
}

/**
 * The notice each pending cursor holds at its frozen watermark (`heldNotice`, reason
 * `signalled`), ordered by watcher then target. Writes nothing, journals nothing.
 */
export function planHeldNotices(input: HeldNoticesInput): readonly Notice[] {
  const targets = input.targets === undefined ? undefined : new Set<string>(input.targets);
  const notices: Notice[] = [];
  const seen = new Set<string>();
  for (const row of [...input.cursors].sort(comparePairs)) {
    if (!isPending(row) || (targets !== undefined && !targets.has(row.target))) continue;
    if (input.owns !== undefined && !input.owns(row.watcher)) continue;
    const key = pairKey(row.watcher, row.target);
    if (seen.has(key)) continue;
    seen.add(key);
    const notice = heldNotice(row.watcher, row.target, fromWatermarks(row));
    if (notice !== undefined) notices.push(notice);
  }
  return notices;
}

// --- removal: reset, delete, expiry, unwatch ------------------------------------------------------

export interface RemovalPlanInput {
  /** The rows being deleted (a pair listed twice, e.g. a self-cursor met as watcher and target, counts once). */
  readonly cursors: readonly CursorRow[];
  readonly reason: EndReason;
  readonly now: number;
}

export interface RemovalPlan {
  /** The removed pairs, each once, ordered by watcher then target. */
  readonly removed: readonly CursorPair[];
  /** One `watch_ended` with the reason per removed pair, in that order. */
  readonly journal: readonly CursorJournalRecord[];
}

/** Removing cursors (`resetWatcher`: reset, `deleteSession`: deleted, prune: expired, unwatch): the pairs and their journal. */
export function planRemoval(input: RemovalPlanInput): RemovalPlan {
  const rows = new Map<string, CursorRow>();
  for (const row of input.cursors) rows.set(pairKey(row.watcher, row.target), row);
  const sorted = [...rows.values()].sort(comparePairs);
  const command: CursorCommand = { type: 'end', reason: input.reason };
  const journal: CursorJournalRecord[] = [];
  for (const row of sorted) {
    const before = fromWatermarks(row);
    journal.push(...journalRecords(row.watcher, row.target, before, stepCursor(command, before).events, input.now));
  }
  return { removed: sorted.map((row) => ({ watcher: row.watcher, target: row.target })), journal };
}

// --- retention ---------------------------------------------------------------------------------

/** A session a prune batch removed events from: its prune watermark before and after the batch. */
export interface PrunedSession {
  readonly sessionKey: SessionKey;
  readonly before: Sequence;
  readonly after: Sequence;
}

export interface PruneMaterialInput {
  readonly pruned: readonly PrunedSession[];
  /** The cursors on the pruned sessions (as targets) that the batch keeps, read under its write lock. */
  readonly cursors: readonly CursorRow[];
  readonly now: number;
}

/**
 * The `material_kept` entries of a prune batch: one for each pending cursor whose material was
 * raised by a target event (material > notified) that the batch's watermark passed now
 * (before < material ≤ after). Rows are not written: no watermark changes, nothing is touched.
 */
export function planPruneMaterial(input: PruneMaterialInput): { readonly journal: readonly CursorJournalRecord[] } {
  const pruned = new Map<string, PrunedSession>();
  for (const session of input.pruned) pruned.set(session.sessionKey, session);
  const journal: CursorJournalRecord[] = [];
  for (const row of [...input.cursors].sort(comparePairs)) {
    const session = pruned.get(row.target);
    if (session === undefined) continue;
    const before = fromWatermarks(row);
    const step = stepCursor({ type: 'prune', before: session.before, after: session.after }, before);
    journal.push(...journalRecords(row.watcher, row.target, before, step.events, input.now));
  }
  return { journal };
}

/** What journal retention needs of an entry. */
export type JournalRetentionEntry = Pick<CursorJournalEntry, 'position' | 'watcher' | 'target' | 'recordedAt'>;

export interface JournalPruneInput {
  /** The journal, in position order. */
  readonly entries: readonly JournalRetentionEntry[];
  /** True when the pair has a cursor now: its latest entry is kept whatever its age. */
  readonly isLive: (watcher: SessionKey, target: SessionKey) => boolean;
  /** Entries recorded before it go (the prune request's now - maxAgeMs). */
  readonly cutoff: number;
  /** Then the oldest entries beyond this many go. */
  readonly maxRows: number;
  /** The batch examines at most this many entries, so at most this many go. */
  readonly batchSize: number;
  /** The batch examines the entries after this position (`PruneRequest.journalAfter`; 0: from the start). */
  readonly after?: number;
  /**
   * The pair's latest position in the journal, from an index the store keeps, so a batch reads
   * only its window; absent, it is found with one pass over `entries`.
   */
  readonly latestOf?: (watcher: SessionKey, target: SessionKey) => number | undefined;
}

/**
 * Journal retention follows the signal log's: entries older than the age limit, then the oldest
 * beyond the row cap — except the latest entry of every live pair, which stays so the live
 * cursor can always be replayed. Entries of removed pairs go like events. One batch examines a
 * window, the first `batchSize` entries after `after`: its removable entries older than the age
 * limit, then its lowest removable ones while the journal is over its cap (counting every entry,
 * kept ones too); `journalAfter` is where the run's next batch resumes and `done` whether the
 * journal part of the run is over (see journalWindowEnd).
 */
export function planJournalPrune(input: JournalPruneInput): { readonly positions: readonly number[]; readonly done: boolean; readonly journalAfter: number } {
  const after = input.after ?? 0;
  const { entries } = input;
  const latestOf = input.latestOf ?? latestPositions(entries);
  const from = firstAfter(entries, after);
  const end = Math.min(entries.length, from + Math.max(0, input.batchSize));
  const removable: JournalRetentionEntry[] = [];
  for (let i = from; i < end; i++) {
    const entry = entries[i] as JournalRetentionEntry;
    if (!input.isLive(entry.watcher, entry.target) || latestOf(entry.watcher, entry.target) !== entry.position) removable.push(entry);
  }
  const aged = removable.filter((entry) => entry.recordedAt < input.cutoff);
  const excess = Math.max(0, entries.length - aged.length - input.maxRows);
  const take = Math.min(input.batchSize - aged.length, excess);
  const capped = take > 0 ? removable.filter((entry) => entry.recordedAt >= input.cutoff).slice(0, take) : [];
  const reachesEnd = end === entries.length;
  // Whether an aged entry lies beyond the window is asked only when it decides `done` (the
  // journal within its cap, its end not reached): it reads the rest of the journal.
  const asksAged = !reachesEnd && excess <= capped.length;
  const windowEnd = journalWindowEnd({
    after,
    lastExamined: end > from ? (entries[end - 1] as JournalRetentionEntry).position : after,
    reachesEnd,
    excess,
    take,
    capped: capped.length,
    lastCapped: capped[capped.length - 1]?.position ?? after,
    agedBeyond: asksAged && someAgedFrom(entries, end, input.cutoff),
  });
  return { positions: [...aged, ...capped].map((entry) => entry.position), ...windowEnd };
}

/** Each pair's latest position in `entries` (one pass over them), as JournalPruneInput.latestOf answers it. */
function latestPositions(entries: readonly JournalRetentionEntry[]): (watcher: SessionKey, target: SessionKey) => number | undefined {
  const latest = new Map<string, number>();
  for (const entry of entries) latest.set(pairKey(entry.watcher, entry.target), entry.position);
  return (watcher, target) => latest.get(pairKey(watcher, target));
}

/** Whether an entry from index `from` on was recorded before `cutoff` (read in place: no copy of the journal's rest). */
function someAgedFrom(entries: readonly JournalRetentionEntry[], from: number, cutoff: number): boolean {
  for (let i = from; i < entries.length; i++) if ((entries[i] as JournalRetentionEntry).recordedAt < cutoff) return true;
  return false;
}

/** The index of the first entry (in position order) with a position above `after`; `entries.length` when none. */
function firstAfter(entries: readonly JournalRetentionEntry[], after: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as JournalRetentionEntry).position > after) high = middle;
    else low = middle + 1;
  }
  return low;
}
