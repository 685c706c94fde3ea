// The in-memory notice queue: per watcher, oldest first, at most one entry per (watcher, target). Its generation counts the
// entries that left it, so a re-read beside the lane can tell whether a pair may have changed while it was in flight.
import type { Sequence } from '@session-state/domain';

/** What the store asks to queue for a pair: `acked` is printed in the text (the reconcile starts there), `notified` the watermark a drain acks. */
type OfferedNotice = { readonly target: string; readonly acked: Sequence; readonly notified: Sequence; readonly text: string };
/** An entry: its text, and the queue's generation when it was queued (`queuedIn`). */
export type QueuedNotice = OfferedNotice & { readonly queuedIn: number };
export type QueuedPair = { readonly watcher: string; readonly entry: QueuedNotice };

export type NoticeQueue = ReturnType<typeof createNoticeQueue>;

/** A watcher's entries: its only one, or a Map by target once it holds two (insertion order is oldest first). */
type WatcherEntries = QueuedNotice | Map<string, QueuedNotice>;

export function createNoticeQueue() {
  const byWatcher = new Map<string, WatcherEntries>();
  // The watchers holding an entry on each target, so a target's entries are found without a scan.
  const watchersByTarget = new Map<string, Set<string>>();
  let entryCount = 0;
  let removals = 0;

  const entryOf = (watcher: string, target: string): QueuedNotice | undefined => {
    const held = byWatcher.get(watcher);
    if (held instanceof Map) return held.get(target);
    return held?.target === target ? held : undefined;
  };

  /** The pair's entry becomes `entry`: in its place when the pair holds one, else newest last. */
  const put = (watcher: string, entry: QueuedNotice): void => {
    const held = byWatcher.get(watcher);
    if (held === undefined || (!(held instanceof Map) && held.target === entry.target)) byWatcher.set(watcher, entry);
    else if (held instanceof Map) held.set(entry.target, entry);
    else byWatcher.set(watcher, new Map([[held.target, held], [entry.target, entry]]));
  };

  /** Takes the pair's entry out of `byWatcher` only; true when it had one. */
  const take = (watcher: string, target: string): boolean => {
    const held = byWatcher.get(watcher);
    if (!(held instanceof Map)) {
      if (held?.target !== target) return false;
      byWatcher.delete(watcher);
      return true;
    }
    if (!held.delete(target)) return false;
    if (held.size === 1) byWatcher.set(watcher, held.values().next().value as QueuedNotice);
    return true;
  };

  const remove = (watcher: string, target: string): boolean => {
    if (!take(watcher, target)) return false;
    entryCount -= 1;
    removals += 1;
    const watchers = watchersByTarget.get(target);
    watchers?.delete(watcher);
    if (watchers?.size === 0) watchersByTarget.delete(target);
    return true;
  };

  const entries = (watcher: string): readonly QueuedNotice[] => {
    const held = byWatcher.get(watcher);
    return held === undefined ? [] : held instanceof Map ? [...held.values()] : [held];
  };

  return {
    /**
     * The pair's entry with the same `acked` (hence the same text) keeps its place, `notified` refreshed
     * (`coalesced`); anything else becomes the pair's entry, newest last, with the text the store's notice carries (`queued`: wake the watcher).
     */
    offer(watcher: string, notice: OfferedNotice): 'queued' | 'coalesced' {
      const current = entryOf(watcher, notice.target);
      if (current !== undefined && current.acked === notice.acked) {
        if (current.notified !== notice.notified) put(watcher, { ...current, notified: notice.notified });
        return 'coalesced';
      }
      if (current !== undefined) {
        take(watcher, notice.target);
        removals += 1;
      } else entryCount += 1;
      const { target, acked, notified, text } = notice;
      put(watcher, { target, acked, notified, text, queuedIn: removals });
      watchersByTarget.set(target, (watchersByTarget.get(target) ?? new Set()).add(watcher));
      return 'queued';
    },
    /** The watcher's entries, oldest first. */
    entries,
    entriesOn(target: string): QueuedPair[] {
      const found: QueuedPair[] = [];
      for (const watcher of watchersByTarget.get(target) ?? []) {
        const entry = entryOf(watcher, target);
        if (entry !== undefined) found.push({ watcher, entry });
      }
      return found;
    },
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
    /** How many entries have left the queue (removed, or replaced by another text). */
    generation: (): number => removals,
    /** Whether the pair's entry cannot have left the queue since generation `mark`. */
    unchangedSince(watcher: string, target: string, mark: number): boolean {
      return removals === mark || (entryOf(watcher, target)?.queuedIn ?? Number.POSITIVE_INFINITY) <= mark;
    },
  };
}
