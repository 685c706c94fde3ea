// The stale-state notice text, byte-exact as the spec gives it.
import type { Sequence } from './sequence';

/** `Session "<target>" changed (other actor). Reconcile before acting: … changesSince N.` */
export function noticeText(target: string, acked: Sequence): string {
  return `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;
}

/** Why a notice was offered to the queue; the app counts these as metrics. */
export type NoticeReason =
  | 'first'
  | 'repeat'
  | 'reopen'
  | 'recovered'
  /** Re-read by the owning gateway after another process's append was signalled (see `heldNotice`). */
  | 'signalled';

/** A notice the app must offer to its queue for one (watcher, target) pair. */
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

/**
 * A notice whose `text` is built when it is read (an own, enumerable getter, so it still compares
 * and serialises like a plain field). Most notices an append asks for are repeats of a pending
 * cursor's notice that only coalesce with the queued entry, so their text is never read: with
 * many watchers on a busy target, building it for each of them was most of a record's work
 * outside SQLite.
 */
export function noticeOf(watcher: string, target: string, acked: Sequence, notified: Sequence, reason: NoticeReason): Notice {
  return {
    watcher,
    target,
    acked,
    notified,
    get text(): string {
      return noticeText(target, acked);
    },
    reason,
  };
}
