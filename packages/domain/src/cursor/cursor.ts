// The watcher cursor as a decider: decide(command, state) gives the events and the notice they
// name; evolve(state, event) folds them. The journal stores the cursor events among them.
import * as t from 'io-ts';

import { kindClass, type EventKind } from '../input/eventKind.js';
import type { NoticeReason } from '../notice.js';
import { maxSequence, Sequence } from '../log/sequence.js';

/** Idle: acked = notified = material. Pending: one notice covers (acked, notified]; acked < notified ≤ material; taken until `takenUntil`. `ambient`: its notices wake nobody. */
export type Cursor =
  | { readonly status: 'idle'; readonly acked: Sequence; readonly ambient?: true }
  | { readonly status: 'pending'; readonly acked: Sequence; readonly notified: Sequence; readonly material: Sequence; readonly takenUntil?: number; readonly ambient?: true };

/** A pair's cursor, or undefined while the pair has none. */
export type CursorState = Cursor | undefined;

export const initialCursor: CursorState = undefined;

/** What a cursor stores: its three watermarks, while its notice is taken the end of the lease, and whether the watch is ambient. */
export interface Watermarks {
  readonly acked: Sequence;
  readonly notified: Sequence;
  readonly material: Sequence;
  readonly takenUntil?: number;
  readonly ambient?: boolean;
}

/** `takenUntil` present only while the notice is taken (a stored 0 or null is none). */
export const lease = (takenUntil: number | null | undefined): { readonly takenUntil?: number } => (takenUntil !== undefined && takenUntil !== null && takenUntil > 0 ? { takenUntil } : {});

/** `ambient` present (true) only for an ambient watch (a stored 1 or true). */
export const watchClass = (ambient: unknown): { readonly ambient?: true } => (ambient === true || ambient === 1 ? { ambient: true } : {});

export function toWatermarks(cursor: Cursor): Watermarks {
  return cursor.status === 'idle'
    ? { acked: cursor.acked, notified: cursor.acked, material: cursor.acked, ...watchClass(cursor.ambient) }
    : { acked: cursor.acked, notified: cursor.notified, material: cursor.material, ...lease(cursor.takenUntil), ...watchClass(cursor.ambient) };
}

/** Reads stored watermarks: material above acked is pending (notified clamped into (acked, material]). */
export function fromWatermarks(w: Watermarks): Cursor {
  if (w.material <= w.acked) return { status: 'idle', acked: w.acked, ...watchClass(w.ambient) };
  const notified = w.notified > w.acked ? (w.notified < w.material ? w.notified : w.material) : w.material;
  return { status: 'pending', acked: w.acked, notified, material: w.material, ...lease(w.takenUntil), ...watchClass(w.ambient) };
}

export const WatchVia = t.keyof({ spawn: null, watch: null, ambient: null }, 'one of spawn, watch, ambient');
export type WatchVia = t.TypeOf<typeof WatchVia>;

export const EndReason = t.keyof(
  { reset: null, deleted: null, expired: null, replaced: null, unwatched: null },
  'one of reset, deleted, expired, replaced, unwatched',
);
export type EndReason = t.TypeOf<typeof EndReason>;

/** The cursor starts idle at `at`; `ambient`: its notices wake nobody. */
const WatchStarted = t.readonly(t.type({ type: t.literal('watch_started'), via: WatchVia, at: Sequence }));
/** An idle cursor met a foreign notifying change: one notice covers (acked, notified]. */
const NoticeRaised = t.readonly(t.type({ type: t.literal('notice_raised'), acked: Sequence, notified: Sequence }));
/** A drain consumed the notice and nothing more had arrived. */
const NoticeAcknowledged = t.readonly(t.type({ type: t.literal('notice_acknowledged'), acked: Sequence }));
/** A drain consumed the notice while more had arrived: one new notice covers (acked, notified]. */
const NoticeReopened = t.readonly(t.type({ type: t.literal('notice_reopened'), acked: Sequence, notified: Sequence }));
/** The watcher's own read reached the head `acked`; notified above it keeps one notice for later changes. */
const NoticeRead = t.readonly(t.type({ type: t.literal('notice_read'), acked: Sequence, notified: Sequence }));
/** The restart scan raised the frozen watermark to material. */
const NoticeRecovered = t.readonly(t.type({ type: t.literal('notice_recovered'), acked: Sequence, notified: Sequence }));
/** The watcher took the notice, leased until `until` (material: what the cursor had seen): it is not handed out again before then. */
const NoticeTaken = t.readonly(t.type({ type: t.literal('notice_taken'), acked: Sequence, notified: Sequence, material: Sequence, until: t.number }));
/** A take or the restart scan found the notice's lease over while unconfirmed: it is handed out again. */
const LeaseExpired = t.readonly(t.type({ type: t.literal('lease_expired') }));
/** Pruning removed the target event that set a pending cursor's material; the entry keeps the value. */
const MaterialKept = t.readonly(t.type({ type: t.literal('material_kept'), material: Sequence }));
const WatchEnded = t.readonly(t.type({ type: t.literal('watch_ended'), reason: EndReason }));
/** An explicit watch of an ambient cursor: its notices wake the watcher from now on (never undone). */
const WatchPromoted = t.readonly(t.type({ type: t.literal('watch_promoted') }));

export const CursorEvent = t.union([WatchStarted, NoticeRaised, NoticeAcknowledged, NoticeReopened, NoticeRead, NoticeRecovered, NoticeTaken, LeaseExpired, MaterialKept, WatchEnded, WatchPromoted]);
export type CursorEvent = t.TypeOf<typeof CursorEvent>;

/** An event of the target's log as `watcher`'s cursor folds it: it raises a pending cursor's material (no journal entry). */
export interface TargetEvent {
  readonly type: 'target_event';
  readonly watcher: string;
  readonly sequence: Sequence;
  readonly kind: EventKind;
  readonly actorSessionKey?: string;
}

/** A pending cursor offers the notice it holds again, unchanged (no journal entry). */
export interface NoticeHeld {
  readonly type: 'notice_held';
  readonly reason: Extract<NoticeReason, 'repeat' | 'recovered' | 'signalled'>;
  readonly acked: Sequence;
  readonly notified: Sequence;
  readonly takenUntil?: number;
}

/** What decide emits: cursor events (journalled), target events (in the signal log) and held notices. */
export type DecidedEvent = CursorEvent | TargetEvent | NoticeHeld;

/** True for the events the cursor journal stores. */
export const isCursorEvent = (event: DecidedEvent): event is CursorEvent => event.type !== 'target_event' && event.type !== 'notice_held';

export type CursorCommand =
  /** Start watching at `at`: a spawn edge replaces an existing cursor, an explicit watch keeps it (promoting an ambient one), an ambient watch keeps it. */
  | { readonly type: 'watch'; readonly at: Sequence; readonly via: WatchVia }
  /** An event appended to the target's log, seen by the cursor of `watcher`. */
  | { readonly type: 'observe'; readonly watcher: string; readonly sequence: Sequence; readonly kind: EventKind; readonly actorSessionKey?: string }
  /** The watcher consumed the notice that covered up to `notified` (compare-and-swap). */
  | { readonly type: 'drain'; readonly notified: Sequence }
  /** The watcher takes the notice frozen at `notified` at `now`, leased until `until`, unless another holds its lease. */
  | { readonly type: 'take'; readonly notified: Sequence; readonly now: number; readonly until: number }
  /** The watcher read the target after `since` up to its head `through`. */
  | { readonly type: 'read'; readonly since: Sequence; readonly through: Sequence }
  | { readonly type: 'restartScan' }
  /** The owning gateway re-reads the cursor after a cross-process signal: it moves nothing. */
  | { readonly type: 'reread' }
  /** A prune batch raised the target's prune watermark from `before` to `after`. */
  | { readonly type: 'prune'; readonly before: Sequence; readonly after: Sequence }
  | { readonly type: 'end'; readonly reason: EndReason };

/** True when `event` notifies `watcher`: a notifying kind caused by someone else. */
export function notifies(watcher: string, event: { readonly kind: EventKind; readonly actorSessionKey?: string }): boolean {
  return kindClass(event.kind) === 'notify' && event.actorSessionKey !== watcher;
}

/** The notice a decision asks the queue for: named by one of its events, with that event's watermarks. */
export interface CursorNotice {
  readonly acked: Sequence;
  readonly notified: Sequence;
  readonly reason: NoticeReason;
  /** The end of the notice's lease while it is taken. */
  readonly takenUntil?: number;
}

export interface CursorDecision {
  readonly events: readonly DecidedEvent[];
  readonly notice?: CursorNotice;
}

const NOTHING: CursorDecision = Object.freeze({ events: Object.freeze([]) });

const decided = (events: readonly DecidedEvent[]): CursorDecision => ({ events });

/** A decision whose last event, `event`, names the notice: its watermarks and lease, for `reason`. */
function naming(event: Extract<DecidedEvent, { readonly notified: Sequence }>, reason: NoticeReason, before: readonly DecidedEvent[] = []): CursorDecision {
  const takenUntil = event.type === 'notice_taken' ? event.until : event.type === 'notice_held' ? event.takenUntil : undefined;
  return { events: [...before, event], notice: { acked: event.acked, notified: event.notified, reason, ...lease(takenUntil) } };
}

type Pending = Cursor & { status: 'pending' };
const held = (cursor: Pending, reason: NoticeHeld['reason'], takenUntil = cursor.takenUntil): NoticeHeld => ({ type: 'notice_held', reason, acked: cursor.acked, notified: cursor.notified, ...lease(takenUntil) });
const leaseEnds = (cursor: Pending): DecidedEvent[] => (cursor.takenUntil !== undefined ? [{ type: 'lease_expired' }] : []);

/** The events `command` causes on `state`, and the notice the last of them names. */
export function decide(command: CursorCommand, state: CursorState): CursorDecision {
  switch (command.type) {
    case 'watch': {
      const started: CursorEvent = { type: 'watch_started', via: command.via, at: command.at };
      if (state === undefined) return decided([started]);
      if (command.via === 'spawn') return decided([{ type: 'watch_ended', reason: 'replaced' }, started]);
      return command.via === 'watch' && state.ambient === true ? decided([{ type: 'watch_promoted' }]) : NOTHING;
    }
    case 'observe': {
      if (state === undefined || !notifies(command.watcher, command)) return NOTHING;
      if (state.status === 'idle') {
        return command.sequence <= state.acked ? NOTHING : naming({ type: 'notice_raised', acked: state.acked, notified: command.sequence }, 'first');
      }
      return naming(held(state, 'repeat'), 'repeat', command.sequence <= state.material ? [] : [{ ...command, type: 'target_event' }]);
    }
    case 'drain':
      if (state?.status !== 'pending') return NOTHING;
      if (state.notified !== command.notified) return naming(held(state, 'repeat'), 'repeat');
      return state.material > state.notified
        ? naming({ type: 'notice_reopened', acked: state.notified, notified: state.material }, 'reopen')
        : decided([{ type: 'notice_acknowledged', acked: state.notified }]);
    case 'take':
      if (state?.status !== 'pending') return NOTHING;
      if (state.notified !== command.notified || (state.takenUntil ?? 0) > command.now) return naming(held(state, 'repeat'), 'repeat');
      return naming({ type: 'notice_taken', acked: state.acked, notified: state.notified, material: state.material, until: command.until }, 'taken', leaseEnds(state));
    case 'read': {
      // A read that started above acked left (acked, since] unread; one ending at or below acked read nothing new.
      if (state === undefined || command.since > state.acked || command.through <= state.acked) return NOTHING;
      const material = state.status === 'pending' ? state.material : state.acked;
      const notified = material > command.through ? material : command.through;
      const read = { type: 'notice_read', acked: command.through, notified } as const;
      return notified > command.through ? naming(read, 'reopen') : decided([read]);
    }
    case 'restartScan':
      // A restart ends every lease: a notice taken and never confirmed is handed out again.
      if (state?.status !== 'pending') return NOTHING;
      if (state.material === state.notified) return naming(held(state, 'recovered', 0), 'recovered', leaseEnds(state));
      return naming({ type: 'notice_recovered', acked: state.acked, notified: state.material }, 'recovered');
    case 'reread':
      return state?.status === 'pending' ? naming(held(state, 'signalled'), 'signalled') : NOTHING;
    case 'prune':
      // Only the batch whose watermark passed a material above notified removed the event that set it.
      if (state?.status !== 'pending' || state.material === state.notified) return NOTHING;
      if (!(command.before < state.material && state.material <= command.after)) return NOTHING;
      return decided([{ type: 'material_kept', material: state.material }]);
    case 'end':
      return state === undefined ? NOTHING : decided([{ type: 'watch_ended', reason: command.reason }]);
  }
}

/** A new notice at (acked, notified], not taken; material is `held`'s when it is pending (never below notified). */
function pendingAt(acked: Sequence, notified: Sequence, held: CursorState): Cursor {
  return fromWatermarks({ acked, notified, material: held?.status === 'pending' ? maxSequence(held.material, notified) : notified });
}

/** Folds one event. Only `watch_started` creates a cursor; material never falls; the class outlives every event but a promotion. */
export function evolve(state: CursorState, event: DecidedEvent): CursorState {
  if (event.type === 'watch_started') return { status: 'idle', acked: event.at, ...watchClass(event.via === 'ambient') };
  const after = state === undefined ? undefined : fold(state, event);
  return after !== undefined && state?.ambient === true && event.type !== 'watch_promoted' ? { ...after, ambient: true } : after;
}

function fold(state: Cursor, event: Exclude<DecidedEvent, { readonly type: 'watch_started' }>): CursorState {
  switch (event.type) {
    case 'notice_raised':
      return pendingAt(event.acked, event.notified, undefined);
    case 'notice_acknowledged':
      return { status: 'idle', acked: event.acked };
    case 'notice_reopened':
    case 'notice_recovered':
      return pendingAt(event.acked, event.notified, state);
    case 'notice_read':
      return event.notified > event.acked ? pendingAt(event.acked, event.notified, state) : { status: 'idle', acked: event.acked };
    case 'notice_taken':
      return state.status === 'pending' ? { ...state, material: maxSequence(state.material, event.material), takenUntil: event.until } : state;
    case 'lease_expired':
      return state.status === 'pending' ? { status: 'pending', acked: state.acked, notified: state.notified, material: state.material } : state;
    case 'material_kept':
      return state.status === 'pending' && event.material > state.material ? { ...state, material: event.material } : state;
    case 'watch_ended':
      return undefined;
    case 'watch_promoted':
      return fromWatermarks({ ...toWatermarks(state), ambient: false });
    case 'target_event':
      // Idle -> pending is a decided notice_raised, never folded from the log.
      if (state.status !== 'pending' || event.sequence <= state.material || !notifies(event.watcher, event)) return state;
      return { ...state, material: event.sequence };
    case 'notice_held':
      return state;
  }
}
