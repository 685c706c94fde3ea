// The watcher cursor: a pure state machine over (acked, notified, material) that decides when
// a watcher gets its one coalesced notice, when a drain acknowledges it and when it reopens.
import { kindClass, type EventKind } from './eventKind';
import { noticeText, type Notice, type NoticeReason } from './notice';
import { maxSequence, type Sequence } from './sequence';

// --- state -------------------------------------------------------------------------------

/**
 * Idle: the watcher has seen everything it was told about (acked = notified = material).
 * Pending: one notice covers (acked, notified]; `material` is the newest foreign change seen.
 * Always acked < notified ≤ material while pending.
 */
export type Cursor =
  | { readonly status: 'idle'; readonly acked: Sequence }
  | { readonly status: 'pending'; readonly acked: Sequence; readonly notified: Sequence; readonly material: Sequence };

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

// --- inputs ------------------------------------------------------------------------------

export type CursorInput =
  /** A spawn edge or an explicit watch starts the cursor at `at`. */
  | { readonly type: 'seed'; readonly at: Sequence }
  /** An event appended to the target's log. */
  | {
      readonly type: 'event';
      readonly sequence: Sequence;
      readonly kind: EventKind;
      readonly actorSessionKey?: string;
    }
  /** The watcher's turn consumed the notice that covered up to `notified` (compare-and-swap). */
  | { readonly type: 'drain'; readonly notified: Sequence }
  /** The start-up scan of durable cursors. */
  | { readonly type: 'restartScan' };

/** The result of one input: the new cursor, whether it must be written, and the notice to offer. */
export interface CursorStep {
  readonly cursor: Cursor;
  /** True when a watermark changed, so the row must be written (and touched). */
  readonly changed: boolean;
  /** For a drain: `stale` when the cursor no longer holds the notice that was drained. */
  readonly drain?: 'acked' | 'stale';
  readonly notice?: { readonly acked: Sequence; readonly notified: Sequence; readonly reason: NoticeReason };
}

const unchanged = (cursor: Cursor): CursorStep => ({ cursor, changed: false });

// --- the transition function ---------------------------------------------------------------

/**
 * Applies one input to the cursor of `watcher` on a target. `cursor` is undefined when the
 * pair has none; only a seed creates one.
 */
export function evolveCursor(watcher: string, cursor: Cursor | undefined, input: CursorInput): CursorStep | undefined {
  if (input.type === 'seed') return { cursor: { status: 'idle', acked: input.at }, changed: true };
  if (cursor === undefined) return undefined;
  switch (input.type) {
    case 'event':
      return onEvent(watcher, cursor, input);
    case 'drain':
      return onDrain(cursor, input.notified);
    case 'restartScan':
      return onRestartScan(cursor);
    default: {
      const unreachable: never = input;
      return unreachable;
    }
  }
}

function onEvent(
  watcher: string,
  cursor: Cursor,
  event: { readonly sequence: Sequence; readonly kind: EventKind; readonly actorSessionKey?: string },
): CursorStep {
  if (kindClass(event.kind) !== 'notify') return unchanged(cursor);
  if (event.actorSessionKey === watcher) return unchanged(cursor);
  switch (cursor.status) {
    case 'idle': {
      if (event.sequence <= cursor.acked) return unchanged(cursor);
      const next: Cursor = { status: 'pending', acked: cursor.acked, notified: event.sequence, material: event.sequence };
      return { cursor: next, changed: true, notice: { acked: next.acked, notified: next.notified, reason: 'first' } };
    }
    case 'pending': {
      const material = maxSequence(cursor.material, event.sequence);
      const next: Cursor = { ...cursor, material };
      return {
        cursor: next,
        changed: material !== cursor.material,
        notice: { acked: cursor.acked, notified: cursor.notified, reason: 'repeat' },
      };
    }
    default: {
      const unreachable: never = cursor;
      return unreachable;
    }
  }
}

function onDrain(cursor: Cursor, drained: Sequence): CursorStep {
  if (cursor.status !== 'pending') return { cursor, changed: false, drain: 'stale' };
  if (cursor.notified !== drained) {
    // Someone else moved the frozen watermark: acknowledge nothing, re-offer what is pending.
    return {
      cursor,
      changed: false,
      drain: 'stale',
      notice: { acked: cursor.acked, notified: cursor.notified, reason: 'repeat' },
    };
  }
  if (cursor.material > cursor.notified) {
    const next: Cursor = { status: 'pending', acked: cursor.notified, notified: cursor.material, material: cursor.material };
    return { cursor: next, changed: true, drain: 'acked', notice: { acked: next.acked, notified: next.notified, reason: 'reopen' } };
  }
  return { cursor: { status: 'idle', acked: cursor.notified }, changed: true, drain: 'acked' };
}

function onRestartScan(cursor: Cursor): CursorStep {
  if (cursor.status !== 'pending') return unchanged(cursor);
  const next: Cursor = { ...cursor, notified: cursor.material };
  return {
    cursor: next,
    changed: next.notified !== cursor.notified,
    notice: { acked: next.acked, notified: next.notified, reason: 'recovered' },
  };
}

// --- notices -------------------------------------------------------------------------------

/** Builds the notice a step asks for, for the (watcher, target) pair. */
export function noticeFor(
  watcher: string,
  target: string,
  step: CursorStep,
): Notice | undefined {
  if (step.notice === undefined) return undefined;
  return {
    watcher,
    target,
    acked: step.notice.acked,
    notified: step.notice.notified,
    text: noticeText(target, step.notice.acked),
    reason: step.notice.reason,
  };
}

/**
 * The notice a cursor holds, read without stepping it: a pending cursor's notice at its frozen
 * watermark, or undefined when it is idle. A gateway re-reading the cursors it owns after a
 * cross-process signal uses it: unlike the restart scan it never raises `notified`, so a notice
 * its watcher may already have read keeps covering exactly what it covered (the drain reopens
 * for the rest), and offering it again only coalesces with the queued entry.
 */
export function heldNotice(watcher: string, target: string, cursor: Cursor): Notice | undefined {
  if (cursor.status !== 'pending') return undefined;
  return { watcher, target, acked: cursor.acked, notified: cursor.notified, text: noticeText(target, cursor.acked), reason: 'signalled' };
}
