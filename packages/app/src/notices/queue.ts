// The in-memory notice queue: per watcher, oldest first, at most one entry per (watcher, target).
import type { Notice as StoreNotice, Sequence } from '@session-state/domain';

/** An entry: what the store asked to queue for the pair, and its text (built once, when the entry is new). */
export type QueuedNotice = Pick<StoreNotice, 'target' | 'acked' | 'notified' | 'takenUntil' | 'ambient'> & { readonly text: string };
export type QueuedPair = { readonly watcher: string; readonly entry: QueuedNotice };

/** `queued`: a new entry; `coalesced`: the pair's entry kept its place; `released`: coalesced, and its lease is gone. */
export type OfferOutcome = 'queued' | 'coalesced' | 'released';

export type NoticeQueue = ReturnType<typeof createNoticeQueue>;

export function createNoticeQueue() {
  // Per watcher, its entries by target; a Map keeps insertion order, so oldest first.
  const byWatcher = new Map<string, Map<string, QueuedNotice>>();
  // The watchers holding an entry on each target, so a target's entries are found without a scan.
  const watchersByTarget = new Map<string, Set<string>>();
  let entryCount = 0;

  const entryOf = (watcher: string, target: string): QueuedNotice | undefined => byWatcher.get(watcher)?.get(target);

  const remove = (watcher: string, target: string): boolean => {
    const entries = byWatcher.get(watcher);
    if (entries?.delete(target) !== true) return false;
    if (entries.size === 0) byWatcher.delete(watcher);
    entryCount -= 1;
    const watchers = watchersByTarget.get(target);
    watchers?.delete(watcher);
    if (watchers?.size === 0) watchersByTarget.delete(target);
    return true;
  };

  const entries = (watcher: string): readonly QueuedNotice[] => [...(byWatcher.get(watcher)?.values() ?? [])];

  return {
    /**
     * The pair's entry with the same `acked` (hence the same text) keeps its place, `notified` and the
     * lease refreshed; anything else becomes the pair's entry, newest last, its text `textOf(acked)`.
     */
    offer(watcher: string, notice: Omit<QueuedNotice, 'text'>, textOf: (target: string, acked: Sequence) => string): OfferOutcome {
      const { target, acked, notified, takenUntil, ambient } = notice;
      const current = entryOf(watcher, target);
      const lease = { ...(takenUntil === undefined ? {} : { takenUntil }), ...(ambient === true ? { ambient } : {}) };
      if (current !== undefined && current.acked === acked) {
        byWatcher.get(watcher)?.set(target, { target, acked, notified, text: current.text, ...lease });
        return current.takenUntil !== undefined && takenUntil === undefined ? 'released' : 'coalesced';
      }
      if (current !== undefined) remove(watcher, target);
      const held = byWatcher.get(watcher) ?? new Map<string, QueuedNotice>();
      byWatcher.set(watcher, held.set(target, { target, acked, notified, text: textOf(target, acked), ...lease }));
      watchersByTarget.set(target, (watchersByTarget.get(target) ?? new Set()).add(watcher));
      entryCount += 1;
      return 'queued';
    },
    /** The watcher's entries, oldest first. */
    entries,
    entryOf,
    entriesOn: (target: string): QueuedPair[] => [...(watchersByTarget.get(target) ?? [])].flatMap((watcher) => entries(watcher).filter((entry) => entry.target === target).map((entry) => ({ watcher, entry }))),
    allEntries: (): QueuedPair[] => [...byWatcher.keys()].flatMap((watcher) => entries(watcher).map((entry) => ({ watcher, entry }))),
    /** Removes the pair's entry if it is still `entry` (identity), so a newer entry survives. */
    removeIfSame(watcher: string, entry: QueuedNotice): void {
      if (entryOf(watcher, entry.target) === entry) remove(watcher, entry.target);
    },
    /** Removes the pair's entry; true when it had one. */
    remove,
    removeWatcher(watcher: string): void {
      for (const entry of entries(watcher)) remove(watcher, entry.target);
    },
    removeTarget(target: string): void {
      for (const watcher of [...(watchersByTarget.get(target) ?? [])]) remove(watcher, target);
    },
    size: (): number => entryCount,
  };
}
