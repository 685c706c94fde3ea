// The pure planners of the store operations on cursors (append: log/append.ts). Each takes the
// rows a store read under its write lock, decides and folds, and returns the rows to write, the
// journal entries to append in the same transaction, and the outcome.
import { decide, evolve, fromWatermarks, toWatermarks, type Cursor, type CursorCommand, type CursorState, type EndReason } from './cursor.js';
import { journalRecords, type CursorJournalRecord } from './journal.js';
import type { CursorRow } from '../log/append.js';
import { toNotice, type Notice, type NoticeTextOf } from '../notice.js';
import type { CursorPair, DrainAck, DrainOutcome, AcknowledgeReadOutcome, AcknowledgeReadRequest, WatchRequest } from '../ports/stateStore.port.js';
import type { Sequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';

/** What a writing plan asks a store to do, in one transaction. */
export interface CursorPlan {
  /** Cursor rows to write (insert or update by pair), each at most once. */
  readonly cursorWrites: readonly CursorRow[];
  /** Journal entries to append, in this order. */
  readonly journal: readonly CursorJournalRecord[];
}

/** The port's pair order: by watcher, then target (code-unit order, as SQL with a binary collation). */
export function comparePairs(a: { readonly watcher: string; readonly target: string }, b: { readonly watcher: string; readonly target: string }): number {
  if (a.watcher !== b.watcher) return a.watcher < b.watcher ? -1 : 1;
  return a.target < b.target ? -1 : a.target > b.target ? 1 : 0;
}

export const pairKey = (watcher: string, target: string): string => `${watcher}\u0000${target}`;

type Owns = (watcher: SessionKey) => boolean;

/** A row that may hold a notice: material above acked. */
const isPending = (row: CursorRow): boolean => row.material > row.acked;

/** True when both cursors store the same watermarks (or both are absent). */
export function sameCursor(a: CursorState, b: CursorState): boolean {
  if (a === undefined || b === undefined) return a === b;
  const [x, y] = [toWatermarks(a), toWatermarks(b)];
  return x.acked === y.acked && x.notified === y.notified && x.material === y.material;
}

const rowOf = (watcher: SessionKey, target: SessionKey, cursor: Cursor, touchedAt: number): CursorRow => ({ watcher, target, ...toWatermarks(cursor), touchedAt });

export interface WatchPlanInput {
  readonly request: WatchRequest;
  /** The pair's cursor row, or undefined when it has none. */
  readonly existing: CursorRow | undefined;
  /** The target's head (0 when it has no head row). */
  readonly head: Sequence;
}

export interface WatchPlan extends CursorPlan {
  readonly created: boolean;
}

/** An explicit watch: a pair without a cursor gets one at the target's head; one with a cursor keeps it. */
export function planWatch(input: WatchPlanInput): WatchPlan {
  const { request, existing } = input;
  const before = existing === undefined ? undefined : fromWatermarks(existing);
  const { events } = decide({ type: 'watch', at: input.head, via: 'watch' }, before);
  const after = events.reduce(evolve, before);
  if (events.length === 0 || after === undefined) return { created: false, cursorWrites: [], journal: [] };
  return {
    created: true,
    cursorWrites: [rowOf(request.watcher, request.target, after, request.now)],
    journal: journalRecords(request.watcher, request.target, before, events, request.now),
  };
}

export interface DrainPlanInput {
  readonly watcher: SessionKey;
  readonly acks: readonly DrainAck[];
  /** The watcher's cursor rows on the acked targets (others are ignored). */
  readonly cursors: readonly CursorRow[];
  readonly now: number;
}

export interface DrainPlan extends CursorPlan {
  /** One outcome per ack, in ack order. */
  readonly outcomes: readonly DrainOutcome[];
}

/**
 * Each ack is a `drain` on its cursor, in order: `acked` (with the `reopened` notice when more
 * had arrived) or `stale` (with the `pending` notice a pending cursor holds at another watermark).
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
    const { events, notice } = decide({ type: 'drain', notified: ack.notified }, before);
    const after = events.reduce(evolve, before);
    if (after !== undefined && !sameCursor(before, after)) {
      const next = rowOf(watcher, ack.target, after, now);
      rows.set(ack.target, next);
      written.set(ack.target, next);
    }
    journal.push(...journalRecords(watcher, ack.target, before, events, now));
    const offered = notice === undefined ? undefined : toNotice(watcher, ack.target, notice);
    const consumed = events[0]?.type === 'notice_acknowledged' || events[0]?.type === 'notice_reopened';
    if (consumed && after !== undefined) {
      return { target: ack.target, result: 'acked', acked: after.acked, ...(offered !== undefined ? { reopened: offered } : {}) };
    }
    return { target: ack.target, result: 'stale', ...(offered !== undefined ? { pending: offered } : {}) };
  });
  return { outcomes, cursorWrites: [...written.values()], journal };
}

export interface AcknowledgeReadPlanInput {
  readonly request: AcknowledgeReadRequest;
  /** The pair's cursor row, or undefined when it has none. */
  readonly existing: CursorRow | undefined;
}

export interface AcknowledgeReadPlan extends CursorPlan {
  readonly outcome: AcknowledgeReadOutcome;
}

/** A reconcile that reached the head: the `read` command; acknowledged up to `through`, or nothing written. */
export function planAcknowledgeRead(input: AcknowledgeReadPlanInput): AcknowledgeReadPlan {
  const { request, existing } = input;
  const before = existing === undefined ? undefined : fromWatermarks(existing);
  const { events, notice } = decide({ type: 'read', since: request.since, through: request.through }, before);
  const after = events.reduce(evolve, before);
  if (events.length === 0 || after === undefined) return { outcome: { acknowledged: false }, cursorWrites: [], journal: [] };
  const reopened = notice === undefined ? undefined : toNotice(request.watcher, request.target, notice);
  return {
    outcome: { acknowledged: true, acked: after.acked, ...(reopened !== undefined ? { reopened } : {}) },
    cursorWrites: [rowOf(request.watcher, request.target, after, request.now)],
    journal: journalRecords(request.watcher, request.target, before, events, request.now),
  };
}

export interface ScanPlanInput {
  /** The cursors read (a store may pass only the pending ones). */
  readonly cursors: readonly CursorRow[];
  /** The restart scan at `now`: each frozen notice raised to material, journalled; absent, nothing is written. */
  readonly raise?: { readonly now: number };
  /** Only cursors whose watcher passes it, when given. */
  readonly owns?: Owns;
  /** Only cursors on these targets, when given (an empty list gives none). */
  readonly targets?: readonly SessionKey[];
  /** Builds the notices' texts; noticeText when absent. */
  readonly textOf?: NoticeTextOf;
}

export interface ScanPlan extends CursorPlan {
  /** One notice per pending pair, each once, ordered by watcher then target. */
  readonly notices: readonly Notice[];
}

/** A page of `scanPending`: with `raise`, the restart scan (reason `recovered`); without, the held notices at their frozen watermark (`reread`, reason `signalled`). */
export function planScan(input: ScanPlanInput): ScanPlan {
  const { raise, owns } = input;
  const targets = input.targets === undefined ? undefined : new Set<string>(input.targets);
  const rows = new Map<string, CursorRow>();
  for (const row of input.cursors) {
    if (!isPending(row) || (targets !== undefined && !targets.has(row.target)) || (owns !== undefined && !owns(row.watcher))) continue;
    if (!rows.has(pairKey(row.watcher, row.target))) rows.set(pairKey(row.watcher, row.target), row);
  }
  const plan = { cursorWrites: [] as CursorRow[], journal: [] as CursorJournalRecord[], notices: [] as Notice[] };
  for (const row of [...rows.values()].sort(comparePairs)) {
    const before = fromWatermarks(row);
    const { events, notice } = decide({ type: raise === undefined ? 'reread' : 'restartScan' }, before);
    if (raise !== undefined) {
      const after = events.reduce(evolve, before);
      if (after !== undefined && !sameCursor(before, after)) plan.cursorWrites.push({ ...row, ...toWatermarks(after), touchedAt: raise.now });
      plan.journal.push(...journalRecords(row.watcher, row.target, before, events, raise.now));
    }
    if (notice !== undefined) plan.notices.push(toNotice(row.watcher, row.target, notice, input.textOf));
  }
  return plan;
}

/** Throws unless a `scanPending` limit is a positive integer. */
export function assertScanLimit(limit: unknown): void {
  if (!Number.isSafeInteger(limit) || (limit as number) < 1) throw new RangeError(`invalid limit: expected a positive integer, got ${String(limit)}`);
}

export interface RemovalPlanInput {
  /** The rows being deleted (a pair listed twice counts once). */
  readonly cursors: readonly CursorRow[];
  readonly reason: EndReason;
  readonly now: number;
}

export interface RemovalPlan {
  /** The removed pairs, each once, in pair order. */
  readonly removed: readonly CursorPair[];
  /** One `watch_ended` per removed pair, in that order. */
  readonly journal: readonly CursorJournalRecord[];
}

export function planRemoval(input: RemovalPlanInput): RemovalPlan {
  const rows = new Map<string, CursorRow>();
  for (const row of input.cursors) rows.set(pairKey(row.watcher, row.target), row);
  const sorted = [...rows.values()].sort(comparePairs);
  const command: CursorCommand = { type: 'end', reason: input.reason };
  const journal: CursorJournalRecord[] = [];
  for (const row of sorted) {
    const before = fromWatermarks(row);
    journal.push(...journalRecords(row.watcher, row.target, before, decide(command, before).events, input.now));
  }
  return { removed: sorted.map((row) => ({ watcher: row.watcher, target: row.target })), journal };
}

/** A session a prune batch removed events from: its prune watermark before and after the batch. */
export interface PrunedSession {
  readonly sessionKey: SessionKey;
  readonly before: Sequence;
  readonly after: Sequence;
}

export interface PruneMaterialInput {
  readonly pruned: readonly PrunedSession[];
  /** The cursors on the pruned sessions (as targets) that the batch keeps. */
  readonly cursors: readonly CursorRow[];
  readonly now: number;
}

/** The `material_kept` entries of a prune batch; rows are not written. */
export function planPruneMaterial(input: PruneMaterialInput): { readonly journal: readonly CursorJournalRecord[] } {
  const pruned = new Map<string, PrunedSession>();
  for (const session of input.pruned) pruned.set(session.sessionKey, session);
  const journal: CursorJournalRecord[] = [];
  for (const row of [...input.cursors].sort(comparePairs)) {
    const session = pruned.get(row.target);
    if (session === undefined) continue;
    const before = fromWatermarks(row);
    const { events } = decide({ type: 'prune', before: session.before, after: session.after }, before);
    journal.push(...journalRecords(row.watcher, row.target, before, events, input.now));
  }
  return { journal };
}
