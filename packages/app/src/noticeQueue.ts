// The in-memory notice queue: per watcher, oldest first, at most one entry per (watcher, target).
import type { Sequence } from '@session-state/domain';

/** One queued notice of a (watcher, target) pair. */
export interface QueuedNotice {
  readonly target: string;
  /**
   * The cursor's `acked` the text prints: where the watcher's reconcile starts (the public
   * notice's `changesSince`); with the target it determines the text.
   */
  readonly acked: Sequence;
  readonly text: string;
  /** The frozen watermark the notice covers; a drain acknowledges up to it. */
  readonly notified: Sequence;
}

/** A queued notice with the watcher it waits for. */
export interface QueuedPair {
  readonly watcher: string;
  readonly entry: QueuedNotice;
}

/** What an offer did: a new entry (the caller wakes the watcher) or a coalesced duplicate. */
export type OfferResult = 'queued' | 'coalesced';

export interface NoticeQueue {
  /**
   * Offers a notice. The same text already queued for the pair keeps its place (only `notified`
   * is refreshed) and is `coalesced`; anything else becomes the pair's entry, newest last.
   * The text is the domain's `noticeText(target, acked)`, so the pair's queued entry has the same
   * text exactly when it has the same `acked`: that is what is compared (no string comparison per
   * repeat offer), and `notice.text` is read only for a new entry.
   */
  offer(watcher: string, notice: QueuedNotice): OfferResult;
  /** The watcher's entries, oldest first. */
  entries(watcher: string): readonly QueuedNotice[];
  /** Every entry whose target is `target`, with its watcher (no particular order). */
  entriesOn(target: string): readonly QueuedPair[];
  /** Every entry, with its watcher (no particular order). */
  allEntries(): readonly QueuedPair[];
  /** Removes the pair's entry if it is still `entry` (identity), so a newer entry survives. */
  removeIfSame(watcher: string, entry: QueuedNotice): void;
  /** Removes the pair's entry, whatever it holds; true when it had one. */
  remove(watcher: string, target: string): boolean;
  /** Removes every entry of the watcher. */
  removeWatcher(watcher: string): void;
  /** Removes every entry whose target is `target`. */
  removeTarget(target: string): void;
  /** How many entries the queue holds, over all watchers (kept as a count, not counted per call). */
  size(): number;
}

/**
 * Creates an empty queue. `onRemoved` hears of every entry that leaves it (removed, or replaced
 * by a different text for the pair), after the fact.
 */
export function createNoticeQueue(onRemoved: (watcher: string, target: string) => void = noop): NoticeQueue {
  // A watcher's entries: its only entry itself, or a Map of them by target once it holds two. Most
  // watchers hold one (a restart scan may queue a hundred thousand), and a Map each would be most
  // of what the queue keeps. Map iteration follows insertion order, which is exactly "oldest first".
  const byWatcher = new Map<string, WatcherEntries>();
  // The watchers holding an entry on each target: a re-read on a few targets (a cross-process
  // signal) and a target's removal look at those entries only, not at the whole queue.
  const watchersByTarget = new Map<string, Set<string>>();
  let entryCount = 0;

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

  /** Takes the pair's entry out of `byWatcher` (no count, index or callback); true when it had one. */
  const take = (watcher: string, target: string): boolean => {
    const held = byWatcher.get(watcher);
    if (held === undefined) return false;
    if (!(held instanceof Map)) {
      if (held.target !== target) return false;
      byWatcher.delete(watcher);
      return true;
    }
    if (!held.delete(target)) return false;
    if (held.size === 1) byWatcher.set(watcher, held.values().next().value as QueuedNotice);
    return true;
  };

  const unindex = (watcher: string, target: string): void => {
    const watchers = watchersByTarget.get(target);
    if (watchers === undefined) return;
    watchers.delete(watcher);
    if (watchers.size === 0) watchersByTarget.delete(target);
  };

  const remove = (watcher: string, target: string): boolean => {
    if (!take(watcher, target)) return false;
    entryCount -= 1;
    unindex(watcher, target);
    onRemoved(watcher, target);
    return true;
  };

  return {
    offer(watcher, notice) {
      const current = entryOf(watcher, notice.target);
      if (current !== undefined && current.acked === notice.acked) {
        if (current.notified !== notice.notified) put(watcher, { ...current, notified: notice.notified });
        return 'coalesced';
      }
      // A different text for the pair replaces the old one and goes to the back as a new notice.
      if (current !== undefined) {
        take(watcher, notice.target);
        onRemoved(watcher, notice.target);
      } else entryCount += 1;
      put(watcher, { target: notice.target, acked: notice.acked, text: notice.text, notified: notice.notified });
      let watchers = watchersByTarget.get(notice.target);
      if (watchers === undefined) {
        watchers = new Set();
        watchersByTarget.set(notice.target, watchers);
      }
      watchers.add(watcher);
      return 'queued';
    },
    entries(watcher) {
      const held = byWatcher.get(watcher);
      return held === undefined ? [] : held instanceof Map ? [...held.values()] : [held];
    },
    entriesOn(target) {
      const found: QueuedPair[] = [];
      for (const watcher of watchersByTarget.get(target) ?? []) {
        const entry = entryOf(watcher, target);
        if (entry !== undefined) found.push({ watcher, entry });
      }
      return found;
    },
    allEntries() {
      const found: QueuedPair[] = [];
      for (const [watcher, held] of byWatcher) {
        if (held instanceof Map) for (const entry of held.values()) found.push({ watcher, entry });
        else found.push({ watcher, entry: held });
      }
      return found;
    },
    removeIfSame(watcher, entry) {
      if (entryOf(watcher, entry.target) === entry) remove(watcher, entry.target);
    },
    remove,
    removeWatcher(watcher) {
      const held = byWatcher.get(watcher);
      if (held === undefined) return;
      const targets = held instanceof Map ? [...held.keys()] : [held.target];
      entryCount -= targets.length;
      byWatcher.delete(watcher);
      for (const target of targets) {
        unindex(watcher, target);
        onRemoved(watcher, target);
      }
    },
    removeTarget(target) {
      for (const watcher of [...(watchersByTarget.get(target) ?? [])]) remove(watcher, target);
    },
    size: () => entryCount,
  };
}

/** A watcher's queued entries: the one it holds, or (two or more) by target, oldest first. */
type WatcherEntries = QueuedNotice | Map<string, QueuedNotice>;

function noop(): void {}
