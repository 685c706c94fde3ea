// The notice a watcher's queue holds for one (watcher, target) pair, and its text.
import type { CursorNotice } from './cursor/cursor.js';
import type { Sequence } from './log/sequence.js';

/** The stale-state notice text, byte-exact as the spec gives it. */
export function noticeText(target: string, acked: Sequence): string {
  return `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;
}

/** Why a notice was offered to the queue; the app counts these as metrics. */
export type NoticeReason = 'first' | 'repeat' | 'reopen' | 'recovered' | 'signalled';

export interface Notice {
  readonly watcher: string;
  readonly target: string;
  /** The cursor's `acked`, the number printed in the text. */
  readonly acked: Sequence;
  /** The frozen watermark the notice covers; a drain acknowledges up to it. */
  readonly notified: Sequence;
  readonly text: string;
  readonly reason: NoticeReason;
}

/** Builds a notice's text from its target and acked. */
export type NoticeTextOf = (target: string, acked: Sequence) => string;

/** The queue's notice for a decided one on the (watcher, target) pair. */
export function toNotice(watcher: string, target: string, notice: CursorNotice, textOf: NoticeTextOf = noticeText): Notice {
  return { watcher, target, acked: notice.acked, notified: notice.notified, text: textOf(target, notice.acked), reason: notice.reason };
}
