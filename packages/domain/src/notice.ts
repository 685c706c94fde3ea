// The stale-state notice text, byte-exact as the spec gives it.
import type { Sequence } from './log/sequence.js';

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

/** Builds a notice's text from its target and acked (noticeText, or a memo of it). */
export type NoticeTextOf = (target: string, acked: Sequence) => string;

/**
 * noticeText remembering the last (target, acked) it built: a planner asking for many notices
 * on one target (every watcher of an append, which mostly share one acked) builds each distinct
 * text once instead of once per watcher. One memo per plan; it holds one string.
 */
export function noticeTextMemo(): NoticeTextOf {
  let lastTarget: string | undefined;
  let lastAcked: Sequence | undefined;
  let lastText = '';
  return (target, acked) => {
    if (target !== lastTarget || acked !== lastAcked) {
      lastText = noticeText(target, acked);
      lastTarget = target;
      lastAcked = acked;
    }
    return lastText;
  };
}

/**
 * noticeText remembering, per target, the last (acked, text) it built: a restart scan meets a
 * target once per watcher pending on it, in watcher order, so the last-only noticeTextMemo never
 * hits there; with this one every notice on a target at one acked shares one string, which the
 * queue then keeps instead of a copy per watcher. One memo per scan; it holds a text per target.
 */
export function noticeTextPerTarget(): NoticeTextOf {
  const byTarget = new Map<string, { readonly acked: Sequence; readonly text: string }>();
  return (target, acked) => {
    const last = byTarget.get(target);
    if (last !== undefined && last.acked === acked) return last.text;
    const text = noticeText(target, acked);
    byTarget.set(target, { acked, text });
    return text;
  };
}

/** How many (target, acked) texts a noticeTextRecent memo keeps. */
export const NOTICE_TEXT_RECENT_SLOTS = 16;

/**
 * noticeText remembering the last NOTICE_TEXT_RECENT_SLOTS distinct (target, acked) texts it
 * built, replacing the oldest: a store keeps one for its life and hands it to every append plan,
 * so records on a few busy targets whose watchers stay pending (the same acked each time) build
 * no text at all. Bounded, unlike noticeTextPerTarget: a long-lived store meets unboundedly many
 * targets. Deterministic: it answers exactly noticeText, only sooner.
 */
export function noticeTextRecent(): NoticeTextOf {
  const targets: (string | undefined)[] = new Array<string | undefined>(NOTICE_TEXT_RECENT_SLOTS).fill(undefined);
  const ackeds: number[] = new Array<number>(NOTICE_TEXT_RECENT_SLOTS).fill(-1);
  const texts: string[] = new Array<string>(NOTICE_TEXT_RECENT_SLOTS).fill('');
  let oldest = 0;
  return (target, acked) => {
    for (let i = 0; i < NOTICE_TEXT_RECENT_SLOTS; i += 1) {
      if (ackeds[i] === acked && targets[i] === target) return texts[i] as string;
    }
    const text = noticeText(target, acked);
    targets[oldest] = target;
    ackeds[oldest] = acked;
    texts[oldest] = text;
    oldest = (oldest + 1) % NOTICE_TEXT_RECENT_SLOTS;
    return text;
  };
}
