// The pure planners of the store operations on cursors (append: log/append.ts): from the rows a store read under its write lock,
// the rows to write, the journal entries to append in the same transaction, and the outcome.
import { decide, evolve, fromWatermarks, toWatermarks, watchClass, type CursorCommand, type CursorDecision, type CursorState, type EndReason, type Watermarks } from './cursor.js';
import { journalRecords, type CursorJournalRecord } from './journal.js';
import type { CursorRow } from '../log/append.js';
import { toNotice, type Notice } from '../notice.js';
import type { AcknowledgeReadOutcome, AcknowledgeReadRequest, CursorPair, DrainOutcome, DrainRequest, ScanRequest, WatchRequest } from '../ports/stateStore.port.js';
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

/** True when both cursors store the same watermarks (or both are absent). */
export function sameCursor(a: CursorState, b: CursorState): boolean {
  if (a === b || a === undefined || b === undefined) return a === b;
  const [x, y] = [toWatermarks(a), toWatermarks(b)];
  return x.acked === y.acked && x.notified === y.notified && x.material === y.material && x.takenUntil === y.takenUntil && x.ambient === y.ambient;
}

/** One command decided on one pair's stored watermarks (undefined: no cursor) at `now`. */
interface PairStep {
  readonly events: CursorDecision['events'];
  readonly after: CursorState;
  /** The row to write when the watermarks moved. */
  readonly write?: CursorRow;
  readonly journal: readonly CursorJournalRecord[];
  readonly notice?: Notice;
}

/** Decides `command` on the pair, folds its events, and gives the row, journal entries and notice they ask for. */
export function stepPair({ watcher, target }: CursorPair, stored: Watermarks | undefined, command: CursorCommand, now: number): PairStep {
  const before = stored === undefined ? undefined : fromWatermarks(stored);
  const { events, notice } = decide(command, before);
  const after = events.reduce(evolve, before);
  return {
    events,
    after,
    ...(after !== undefined && !sameCursor(before, after) ? { write: { watcher, target, ...toWatermarks(after), touchedAt: now } } : {}),
    journal: journalRecords(watcher, target, before, events, now),
    ...(notice !== undefined ? { notice: toNotice(watcher, target, { ...notice, ...watchClass(before?.ambient) }) } : {}),
  };
}

const written = (step: PairStep): CursorRow[] => (step.write === undefined ? [] : [step.write]);

export interface WatchPlanInput {
  readonly request: WatchRequest;
  /** The pair's cursor row, or undefined when it has none. */
  readonly existing: CursorRow | undefined;
  /** The target's head (0 when it has no head row). */
  readonly head: Sequence;
}

/** An explicit or ambient watch: a pair without a cursor gets one at the target's head; one with a cursor keeps it (an explicit watch promotes an ambient one). */
export function planWatch({ request, existing, head }: WatchPlanInput): CursorPlan & { readonly created: boolean } {
  const step = stepPair(request, existing, { type: 'watch', at: head, via: request.ambient === true ? 'ambient' : 'watch' }, request.now);
  return { created: step.events[0]?.type === 'watch_started', cursorWrites: written(step), journal: step.journal };
}

/**
 * Each ack is a `drain` on its cursor, in order: `acked` (with the `reopened` notice when more had arrived) or `stale` (with
 * the `pending` notice at another watermark or lease); with `takenUntil`, a `take`: `taken` (the notice, leased until then) or `stale`.
 * `cursors`: the watcher's rows on the acked targets (others are ignored).
 */
export function planDrain(input: DrainRequest & { readonly cursors: readonly CursorRow[] }): CursorPlan & { readonly outcomes: readonly DrainOutcome[] } {
  const { watcher, now, takenUntil } = input;
  const rows = new Map<SessionKey, CursorRow>();
  for (const row of input.cursors) if (row.watcher === watcher) rows.set(row.target, row);
  const journal: CursorJournalRecord[] = [];
  const writes = new Map<SessionKey, CursorRow>();
  const outcomes = input.acks.map(({ target, notified }): DrainOutcome => {
    const command: CursorCommand = takenUntil === undefined ? { type: 'drain', notified } : { type: 'take', notified, now, until: takenUntil };
    const step = stepPair({ watcher, target }, rows.get(target), command, now);
    if (step.write !== undefined) {
      rows.set(target, step.write);
      writes.set(target, step.write);
    }
    journal.push(...step.journal);
    if (step.notice?.reason === 'taken') return { target, result: 'taken', notice: step.notice };
    const consumed = step.events[0]?.type === 'notice_acknowledged' || step.events[0]?.type === 'notice_reopened';
    if (consumed && step.after !== undefined) {
      return { target, result: 'acked', acked: step.after.acked, ...(step.notice !== undefined ? { reopened: step.notice } : {}) };
    }
    return { target, result: 'stale', ...(step.notice !== undefined ? { pending: step.notice } : {}) };
  });
  return { outcomes, cursorWrites: [...writes.values()], journal };
}

/** A reconcile that reached the head: the `read` command; acknowledged up to `through`, or nothing written. */
export function planAcknowledgeRead(input: { readonly request: AcknowledgeReadRequest; readonly existing: CursorRow | undefined }): CursorPlan & {
  readonly outcome: AcknowledgeReadOutcome;
} {
  const { since, through, now } = input.request;
  const step = stepPair(input.request, input.existing, { type: 'read', since, through }, now);
  if (step.events.length === 0 || step.after === undefined) return { outcome: { acknowledged: false }, cursorWrites: [], journal: [] };
  const outcome: AcknowledgeReadOutcome = { acknowledged: true, acked: step.after.acked, ...(step.notice !== undefined ? { reopened: step.notice } : {}) };
  return { outcome, cursorWrites: written(step), journal: step.journal };
}

/** `raise`: the restart scan at `now` (journalled); absent, nothing is written. `cursors`: those read (a store may pass only the pending ones). */
export type ScanPlanInput = Pick<ScanRequest, 'raise' | 'owns' | 'targets'> & { readonly cursors: readonly CursorRow[] };

/**
 * A page of `scanPending`: with `raise`, the restart scan (reason `recovered`); without, the held notices at their frozen watermark
 * (`reread`, reason `signalled`). One notice per pending pair, each once, ordered by watcher then target.
 */
export function planScan(input: ScanPlanInput): CursorPlan & { readonly notices: readonly Notice[] } {
  const { raise, owns } = input;
  const targets = input.targets === undefined ? undefined : new Set<string>(input.targets);
  const rows = new Map<string, CursorRow>();
  for (const row of input.cursors) {
    if (row.material <= row.acked || (targets !== undefined && !targets.has(row.target)) || (owns !== undefined && !owns(row.watcher))) continue;
    if (!rows.has(pairKey(row.watcher, row.target))) rows.set(pairKey(row.watcher, row.target), row);
  }
  const plan = { cursorWrites: [] as CursorRow[], journal: [] as CursorJournalRecord[], notices: [] as Notice[] };
  for (const row of [...rows.values()].sort(comparePairs)) {
    const step = stepPair(row, row, { type: raise === undefined ? 'reread' : 'restartScan' }, raise?.now ?? 0);
    if (raise !== undefined) {
      plan.cursorWrites.push(...written(step));
      plan.journal.push(...step.journal);
    }
    if (step.notice !== undefined) plan.notices.push(step.notice);
  }
  return plan;
}

/** Throws unless a `scanPending` limit is a positive integer. */
export function assertScanLimit(limit: unknown): void {
  if (!Number.isSafeInteger(limit) || (limit as number) < 1) throw new RangeError(`invalid limit: expected a positive integer, got ${String(limit)}`);
}

export interface RemovalPlan {
  /** The removed pairs, each once, in pair order. */
  readonly removed: readonly CursorPair[];
  /** One `watch_ended` per removed pair, in that order. */
  readonly journal: readonly CursorJournalRecord[];
}

/** The removal of `cursors` (a pair listed twice counts once). */
export function planRemoval(input: { readonly cursors: readonly CursorRow[]; readonly reason: EndReason; readonly now: number }): RemovalPlan {
  const rows = new Map(input.cursors.map((row) => [pairKey(row.watcher, row.target), row]));
  const sorted = [...rows.values()].sort(comparePairs);
  const journal = sorted.flatMap((row) => stepPair(row, row, { type: 'end', reason: input.reason }, input.now).journal);
  return { removed: sorted.map((row) => ({ watcher: row.watcher, target: row.target })), journal };
}

/** A session a prune batch removed events from: its prune watermark before and after the batch. */
export interface PrunedSession {
  readonly sessionKey: SessionKey;
  readonly before: Sequence;
  readonly after: Sequence;
}

/** The `material_kept` entries of a prune batch on the `cursors` it keeps on the pruned sessions (as targets); rows are not written. */
export function planPruneMaterial(input: { readonly pruned: readonly PrunedSession[]; readonly cursors: readonly CursorRow[]; readonly now: number }) {
  const pruned = new Map<string, PrunedSession>(input.pruned.map((session) => [session.sessionKey, session]));
  const journal = [...input.cursors].sort(comparePairs).flatMap((row) => {
    const session = pruned.get(row.target);
    if (session === undefined) return [];
    return stepPair(row, row, { type: 'prune', before: session.before, after: session.after }, input.now).journal;
  });
  return { journal };
}
