// The notice queue of SPEC 5 in miniature: per watcher, one entry per target in queue order. The
// same text offered again coalesces (only `notified` refreshes); a different text for the target
// replaces the entry at the back and wakes the watcher, unless it is a nested sub-agent.

/** The exact SPEC 5 notice text, written out here so tests check the library against the spec. */
export const noticeTextOf = (target: string, acked: number): string =>
  `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;

const NOTICE_PATTERN = /^Session "(.+)" changed \(other actor\)\. Reconcile before acting: session_status sessionKey "(.+)" changesSince (\d+)\.$/;

/** The target and acked of a notice text, or undefined when it is not one. */
export function parseNotice(text: string): { readonly target: string; readonly acked: number } | undefined {
  const match = NOTICE_PATTERN.exec(text);
  if (match === null || match[1] !== match[2]) return undefined;
  return { target: match[1] as string, acked: Number(match[3]) };
}

/** SPEC 1: `agent:<id>:<rest>`. */
export const isAgentKey = (key: string): boolean => /^agent:[^:]+:.+$/.test(key);
/** SPEC 5: a nested sub-agent (`subagent` a part of its rest) is never woken. */
const isNestedKey = (key: string): boolean => isAgentKey(key) && key.split(':').slice(2).includes('subagent');

export interface QueuedNotice {
  readonly watcher: string;
  readonly target: string;
  readonly text: string;
  readonly acked: number;
  readonly notified: number;
  readonly reason?: string;
}

/** What an offer did: a new entry, a coalesced duplicate, or a new text replacing the target's entry. */
export type OfferOutcome = 'queued' | 'coalesced' | 'replaced';

export class NoticeQueueModel {
  /** watcher -> target -> entry, in queue order (Map insertion order). */
  private entries = new Map<string, Map<string, QueuedNotice>>();
  /** Every wake since the queue was last cleared. */
  wakes: string[] = [];

  /** Offers the notice of (watcher, target) at `acked`/`notified`; wakes unless it coalesced. */
  offer(watcher: string, target: string, acked: number, notified: number, reason?: string): OfferOutcome {
    const text = noticeTextOf(target, acked);
    const pairs = this.entries.get(watcher) ?? new Map<string, QueuedNotice>();
    this.entries.set(watcher, pairs);
    const current = pairs.get(target);
    if (current !== undefined && current.text === text) {
      if (current.notified !== notified) pairs.set(target, { ...current, notified });
      return 'coalesced';
    }
    pairs.delete(target);
    pairs.set(target, { watcher, target, text, acked, notified, ...(reason !== undefined ? { reason } : {}) });
    if (!isNestedKey(watcher)) this.wakes.push(watcher);
    return current === undefined ? 'queued' : 'replaced';
  }

  /** The watcher's entries, oldest first. */
  of(watcher: string): readonly QueuedNotice[] {
    return [...(this.entries.get(watcher)?.values() ?? [])];
  }

  /** Every entry, watcher by watcher in first-queued order. */
  all(): QueuedNotice[] {
    return [...this.entries.values()].flatMap((pairs) => [...pairs.values()]);
  }

  watchers(): string[] {
    return [...this.entries.keys()];
  }

  /** Removes and returns the watcher's entries (a drain consumes them all). */
  take(watcher: string): QueuedNotice[] {
    const taken = this.of(watcher);
    this.entries.delete(watcher);
    return [...taken];
  }

  remove(watcher: string, target: string): void {
    const pairs = this.entries.get(watcher);
    if (pairs === undefined) return;
    pairs.delete(target);
    if (pairs.size === 0) this.entries.delete(watcher);
  }

  /** Puts the watcher's entries in `order` (texts), as a store's restart scan ordered them. */
  reorder(watcher: string, order: readonly string[]): void {
    const pairs = this.entries.get(watcher);
    if (pairs === undefined) return;
    const sorted = [...pairs.values()].sort((a, b) => order.indexOf(a.text) - order.indexOf(b.text));
    this.entries.set(watcher, new Map(sorted.map((entry) => [entry.target, entry])));
  }

  /** The process stopped: the queue and the wakes it caused are gone. */
  clear(): void {
    this.entries = new Map();
    this.wakes = [];
  }
}
