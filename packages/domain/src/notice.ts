// The notice a watcher's queue holds for one (watcher, target) pair, and its text.
import type { CursorNotice } from './cursor/cursor.js';
import type { Sequence } from './log/sequence.js';

/** The stale-state notice text, byte-exact as the contract gives it; a link, when given, goes before the instruction. */
export function noticeText(target: string, acked: Sequence, link?: string): string {
  const open = link === undefined ? '' : ` Open: [session](<${link}>)`;
  return `Session "${target}" changed (other actor).${open} Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;
}

/** Why a notice was offered to the queue; the app counts these as metrics. */
export type NoticeReason = 'first' | 'repeat' | 'reopen' | 'recovered' | 'signalled' | 'taken';

/** A notice as the store hands it to the queue; the queue builds its text. */
export interface Notice {
  readonly watcher: string;
  readonly target: string;
  /** The cursor's `acked`, the number printed in the text. */
  readonly acked: Sequence;
  /** The frozen watermark the notice covers; a drain acknowledges up to it. */
  readonly notified: Sequence;
  readonly reason: NoticeReason;
  /** The end of the notice's lease (clock ms) while it is taken. */
  readonly takenUntil?: number;
  /** The notice of an ambient watch: queued, never woken for. */
  readonly ambient?: true;
}

/** The queue's notice for a decided one on the (watcher, target) pair, of the watch's class. */
export function toNotice(watcher: string, target: string, notice: CursorNotice & Pick<Notice, 'ambient'>): Notice {
  return { watcher, target, ...notice };
}
