// The watcher cursor as a decider: `decide(command, state)` turns a command into cursor events,
// `evolve(state, event)` folds cursor events and the target's signal events into the cursor.
// The cursor events are what the cursor journal stores; the store planners (cursorPlans.ts,
// append.ts) are the only callers of `stepCursor`, so the rules live here once.
import * as t from 'io-ts';

import { kindClass, type EventKind } from '../input/eventKind.js';
import { noticeText, type Notice, type NoticeReason, type NoticeTextOf } from '../notice.js';
import { maxSequence, Sequence } from '../log/sequence.js';

// --- state -------------------------------------------------------------------------------

/**
 * Idle: the watcher has seen everything it was told about (acked = notified = material).
 * Pending: one notice covers (acked, notified]; `material` is the newest foreign change seen.
 * Always acked < notified ≤ material while pending.
 */
export type Cursor =
  | { readonly status: 'idle'; readonly acked: Sequence }
  | { readonly status: 'pending'; readonly acked: Sequence; readonly notified: Sequence; readonly material: Sequence };

/** A pair's cursor, or undefined while the pair has none (never watched, or the watch ended). */
export type CursorState = Cursor | undefined;

/** The state of a pair before its first event: no cursor. */
export const initialCursor: CursorState = undefined;

/** The three stored watermarks of a cursor. */
export interface Watermarks {
  readonly acked: Sequence;
  readonly notified: Sequence;
  readonly material: Sequence;
}

export function toWatermarks(cursor: Cursor): Watermarks {
  return cursor.status === 'idle'
    ? { acked: cursor.acked, notified: cursor.acked, material: cursor.acked }
    : { acked: cursor.acked, notified: cursor.notified, material: cursor.material };
}

/**
 * Reads stored watermarks back. A row with material above acked is pending even if its
 * notified was not raised (the restart scan raises it); notified is clamped into range.
 */
export function fromWatermarks(w: Watermarks): Cursor {
  if (w.material <= w.acked) return { status: 'idle', acked: w.acked };
  const notified = w.notified > w.acked ? (w.notified < w.material ? w.notified : w.material) : w.material;
  return { status: 'pending', acked: w.acked, notified, material: w.material };
}

// --- events: the cursor journal's entries (the `type` strings are stored; never rename) -----

/** How a watch started: a spawn edge (`childSpawned`, overwriting any cursor) or an explicit watch. */
export const WatchVia = t.keyof({ spawn: null, watch: null }, 'one of spawn, watch');
export type WatchVia = t.TypeOf<typeof WatchVia>;

/**
 * Why a watch ended: the watcher was reset, a session of the pair was deleted, the cursor expired
 * untouched, a new spawn edge replaced it, or the watcher stopped watching (issue 15).
 */
export const EndReason = t.keyof(
  { reset: null, deleted: null, expired: null, replaced: null, unwatched: null },
  'one of reset, deleted, expired, replaced, unwatched',
);
export type EndReason = t.TypeOf<typeof EndReason>;

/** The cursor starts idle at `at` (acked = notified = material = at). */
export const WatchStarted = t.readonly(t.type({ type: t.literal('watch_started'), via: WatchVia, at: Sequence }));
/** An idle cursor met a foreign notifying event: one notice now covers (acked, notified]. */
export const NoticeRaised = t.readonly(t.type({ type: t.literal('notice_raised'), acked: Sequence, notified: Sequence }));
/** A drain consumed the notice and nothing more had arrived: idle at `acked`. */
export const NoticeAcknowledged = t.readonly(t.type({ type: t.literal('notice_acknowledged'), acked: Sequence }));
/** A drain consumed the notice while more had arrived: one new notice covers (acked, notified]. */
export const NoticeReopened = t.readonly(t.type({ type: t.literal('notice_reopened'), acked: Sequence, notified: Sequence }));
/**
 * The watcher's own reconcile (`status` with `reader`) read the target up to its head `acked`
 * from at or below the cursor's acked: what it read is acknowledged. `notified` equals `acked`
 * when nothing newer had arrived (idle at `acked`); above it, changes recorded after the read
 * keep one new notice covering (acked, notified]. Issue 15.
 */
export const NoticeRead = t.readonly(t.type({ type: t.literal('notice_read'), acked: Sequence, notified: Sequence }));
/** The restart scan raised the frozen watermark to material (only when that changed it). */
export const NoticeRecovered = t.readonly(t.type({ type: t.literal('notice_recovered'), acked: Sequence, notified: Sequence }));
/**
 * Pruning removed the target event that set a pending cursor's material; the entry keeps the
 * value, so replay never depends on pruned history.
 */
export const MaterialKept = t.readonly(t.type({ type: t.literal('material_kept'), material: Sequence }));
/** The cursor was removed. */
export const WatchEnded = t.readonly(t.type({ type: t.literal('watch_ended'), reason: EndReason }));

export const CursorEvent = t.union([WatchStarted, NoticeRaised, NoticeAcknowledged, NoticeReopened, NoticeRead, NoticeRecovered, MaterialKept, WatchEnded]);
export type CursorEvent = t.TypeOf<typeof CursorEvent>;
export type CursorEventType = CursorEvent['type'];

/** Every cursor event type, in the order of a cursor's life. */
export const CURSOR_EVENT_TYPES: readonly CursorEventType[] = [
  'watch_started',
  'notice_raised',
  'notice_acknowledged',
  'notice_reopened',
  'notice_read',
  'notice_recovered',
  'material_kept',
  'watch_ended',
];

/**
 * An event of the target's signal log as the cursor of `watcher` folds it. Not a cursor event:
 * a burst on a watched target adds no journal entry per watcher, it only raises `material`.
 */
export interface TargetEvent {
  readonly type: 'target_event';
  readonly watcher: string;
  readonly sequence: Sequence;
  readonly kind: EventKind;
  readonly actorSessionKey?: string;
}

// --- commands ----------------------------------------------------------------------------

export type CursorCommand =
  /** Start watching at `at`: a spawn edge overwrites an existing cursor, an explicit watch keeps it. */
  | { readonly type: 'watch'; readonly at: Sequence; readonly via: WatchVia }
  /** An event appended to the target's log, seen by the cursor of `watcher`. */
  | {
      readonly type: 'observe';
      readonly watcher: string;
      readonly sequence: Sequence;
      readonly kind: EventKind;
      readonly actorSessionKey?: string;
    }
  /** The watcher's turn consumed the notice that covered up to `notified` (compare-and-swap). */
  | { readonly type: 'drain'; readonly notified: Sequence }
  /**
   * The watcher read the target's changes after `since` up to its head `through` (a `status`
   * page with `reader` that reached the head): acknowledges them when the read started at or
   * below acked.
   */
  | { readonly type: 'read'; readonly since: Sequence; readonly through: Sequence }
  /** The restart scan of durable cursors, run once when a gateway starts. */
  | { readonly type: 'restartScan' }
  /** A prune batch raised the target's prune watermark from `before` to `after`. */
  | { readonly type: 'prune'; readonly before: Sequence; readonly after: Sequence }
  /** Remove the cursor. */
  | { readonly type: 'end'; readonly reason: EndReason };

/** True when `event` notifies `watcher`: a notifying kind caused by someone else. */
export function notifies(watcher: string, event: { readonly kind: EventKind; readonly actorSessionKey?: string }): boolean {
  return kindClass(event.kind) === 'notify' && event.actorSessionKey !== watcher;
}

// --- decide --------------------------------------------------------------------------------

const NO_EVENTS: readonly CursorEvent[] = Object.freeze([]);

/** The cursor events `command` causes on `state`; none when nothing changes but material. */
export function decide(command: CursorCommand, state: CursorState): readonly CursorEvent[] {
  switch (command.type) {
    case 'watch': {
      const started: CursorEvent = { type: 'watch_started', via: command.via, at: command.at };
      if (state === undefined) return [started];
      return command.via === 'spawn' ? [{ type: 'watch_ended', reason: 'replaced' }, started] : NO_EVENTS;
    }
    case 'observe':
      if (state?.status !== 'idle' || command.sequence <= state.acked || !notifies(command.watcher, command)) return NO_EVENTS;
      return [{ type: 'notice_raised', acked: state.acked, notified: command.sequence }];
    case 'drain':
      if (state?.status !== 'pending' || state.notified !== command.notified) return NO_EVENTS;
      return state.material > state.notified
        ? [{ type: 'notice_reopened', acked: state.notified, notified: state.material }]
        : [{ type: 'notice_acknowledged', acked: state.notified }];
    case 'read': {
      // A read that started above acked left (acked, since] unread; one that ended at or below
      // acked covered nothing new.
      if (state === undefined || command.since > state.acked || command.through <= state.acked) return NO_EVENTS;
      const material = state.status === 'pending' ? state.material : state.acked;
      return [{ type: 'notice_read', acked: command.through, notified: material > command.through ? material : command.through }];
    }
    case 'restartScan':
      if (state?.status !== 'pending' || state.material === state.notified) return NO_EVENTS;
      return [{ type: 'notice_recovered', acked: state.acked, notified: state.material }];
    case 'prune':
      // The events this batch removed include the one that set a pending cursor's material only
      // when the watermark passed it now (an earlier prune kept any lower material already).
      if (state?.status !== 'pending' || state.material === state.notified) return NO_EVENTS;
      if (!(command.before < state.material && state.material <= command.after)) return NO_EVENTS;
      return [{ type: 'material_kept', material: state.material }];
    case 'end':
      return state === undefined ? NO_EVENTS : [{ type: 'watch_ended', reason: command.reason }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

// --- evolve --------------------------------------------------------------------------------

const materialOf = (state: CursorState): Sequence | undefined => (state?.status === 'pending' ? state.material : undefined);

function pendingAt(acked: Sequence, notified: Sequence, material: Sequence | undefined): Cursor {
  return fromWatermarks({ acked, notified, material: material === undefined ? notified : maxSequence(material, notified) });
}

/**
 * Folds one event into the cursor. Only `watch_started` creates a cursor; any other event on a
 * pair without one leaves it without one. Material never falls: an event that sets `notified`
 * keeps a higher material that target events raised meanwhile.
 */
export function evolve(state: CursorState, event: CursorEvent | TargetEvent): CursorState {
  if (event.type === 'watch_started') return { status: 'idle', acked: event.at };
  if (state === undefined) return undefined;
  switch (event.type) {
    case 'notice_raised':
      return pendingAt(event.acked, event.notified, undefined);
    case 'notice_acknowledged':
      return { status: 'idle', acked: event.acked };
    case 'notice_reopened':
    case 'notice_recovered':
      return pendingAt(event.acked, event.notified, materialOf(state));
    case 'notice_read':
      return event.notified > event.acked ? pendingAt(event.acked, event.notified, materialOf(state)) : { status: 'idle', acked: event.acked };
    case 'material_kept':
      return state.status === 'pending' && event.material > state.material ? { ...state, material: event.material } : state;
    case 'watch_ended':
      return undefined;
    case 'target_event':
      return foldTargetEvent(state, event);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * Folds an event of the target's log (a `target_event`, or the `observe` command naming the same
 * fields, so a planner stepping every watcher of an append builds no event object per watcher):
 * a foreign notifying change above material raises a pending cursor's material. Idle -> pending
 * is a decided `notice_raised`, never folded from the log.
 */
function foldTargetEvent(state: Cursor, event: Omit<TargetEvent, 'type'>): Cursor {
  if (state.status !== 'pending' || event.sequence <= state.material || !notifies(event.watcher, event)) return state;
  return { status: 'pending', acked: state.acked, notified: state.notified, material: event.sequence };
}

// --- one step, as the planners take it --------------------------------------------------------

/** The notice a step asks the app's queue for (its text is built by `noticeFor`). */
export interface StepNotice {
  readonly acked: Sequence;
  readonly notified: Sequence;
  readonly reason: NoticeReason;
}

/** The result of one command: its events, the cursor after them, and what the store must do. */
export interface CursorStep {
  readonly events: readonly CursorEvent[];
  readonly cursor: CursorState;
  /** True when the row must be written: a watermark changed, or the cursor was created or removed. */
  readonly changed: boolean;
  /** For a drain: `stale` when the cursor no longer holds the notice that was drained. */
  readonly drain?: 'acked' | 'stale';
  readonly notice?: StepNotice;
}

// Compares field by field rather than through toWatermarks: a planner steps every cursor on a
// target per append, so this runs once per watcher and should allocate nothing.
/** A cursor's stored `notified` (its acked when idle), read without building its watermarks. */
export const notifiedOf = (c: Cursor): Sequence => (c.status === 'pending' ? c.notified : c.acked);
/** A cursor's stored `material` (its acked when idle), read without building its watermarks. */
export const materialOrAcked = (c: Cursor): Sequence => (c.status === 'pending' ? c.material : c.acked);

function sameCursor(a: CursorState, b: CursorState): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.acked === b.acked && notifiedOf(a) === notifiedOf(b) && materialOrAcked(a) === materialOrAcked(b);
}

/** The notice of a pending cursor, for `reason`. */
function heldBy(cursor: CursorState, reason: NoticeReason): StepNotice | undefined {
  return cursor?.status === 'pending' ? { acked: cursor.acked, notified: cursor.notified, reason } : undefined;
}

/**
 * Decides `command` on `state` and folds the events (and, for `observe`, the target event
 * itself, which may raise material), naming the notice the step asks for: `first` when a notice
 * is raised, `repeat` when a pending cursor sees another foreign change or a stale drain,
 * `reopen` after a drain or a read that reopened, `recovered` for every pending cursor the restart scan
 * meets (its notified raised or not).
 */
export function stepCursor(command: CursorCommand, state: CursorState): CursorStep {
  const events = decide(command, state);
  let cursor = state;
  // Indexed, not for…of: this runs once per watcher per append, and builds no iterator.
  for (let i = 0; i < events.length; i += 1) cursor = evolve(cursor, events[i] as CursorEvent);
  if (command.type === 'observe' && cursor !== undefined) cursor = foldTargetEvent(cursor, command);
  const changed = !sameCursor(state, cursor);
  const first = events[0];
  let notice: StepNotice | undefined;
  let drain: CursorStep['drain'];
  switch (command.type) {
    case 'observe':
      if (first?.type === 'notice_raised') notice = heldBy(cursor, 'first');
      else if (state?.status === 'pending' && notifies(command.watcher, command)) notice = heldBy(cursor, 'repeat');
      break;
    case 'drain':
      drain = first === undefined ? 'stale' : 'acked';
      notice = first === undefined ? heldBy(cursor, 'repeat') : first.type === 'notice_reopened' ? heldBy(cursor, 'reopen') : undefined;
      break;
    case 'read':
      // Changes recorded after the read reopen one notice; a read that acknowledged nothing asks for none.
      if (first !== undefined) notice = heldBy(cursor, 'reopen');
      break;
    case 'restartScan':
      notice = heldBy(cursor, 'recovered');
      break;
    case 'watch':
    case 'prune':
    case 'end':
      break;
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
  // Built by assignment rather than conditional spreads: this runs once per watcher per append.
  const step: { -readonly [K in keyof CursorStep]: CursorStep[K] } = { events, cursor, changed };
  if (drain !== undefined) step.drain = drain;
  if (notice !== undefined) step.notice = notice;
  return step;
}

// --- notices -------------------------------------------------------------------------------

/** Builds the notice a step asks for, for the (watcher, target) pair; `textOf` may be a noticeTextMemo. */
export function noticeFor(watcher: string, target: string, step: { readonly notice?: StepNotice }, textOf: NoticeTextOf = noticeText): Notice | undefined {
  if (step.notice === undefined) return undefined;
  const { acked, notified, reason } = step.notice;
  return { watcher, target, acked, notified, text: textOf(target, acked), reason };
}

/**
 * The notice a cursor holds, read without stepping it: a pending cursor's notice at its frozen
 * watermark, or undefined when it is idle. A gateway re-reading the cursors it owns after a
 * cross-process signal uses it: unlike the restart scan it never raises `notified`, so a notice
 * its watcher may already have read keeps covering exactly what it covered (the drain reopens
 * for the rest), and offering it again only coalesces with the queued entry.
 */
export function heldNotice(watcher: string, target: string, cursor: Cursor, textOf: NoticeTextOf = noticeText): Notice | undefined {
  if (cursor.status !== 'pending') return undefined;
  return { watcher, target, acked: cursor.acked, notified: cursor.notified, text: textOf(target, cursor.acked), reason: 'signalled' };
}
