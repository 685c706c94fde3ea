// Journal retention: which entries one batch removes, where the run's next batch resumes and
// whether the journal part of the run is done. The SQL stores decide the end from their counts.
import type { CursorJournalEntry } from './journal.js';
import { pairKey } from './plans.js';
import type { SessionKey } from '../input/sessionKey.js';

/** What one journal retention batch found in its window (the entries after `after`, at most `batchSize`). */
export interface JournalWindowFacts {
  /** The position the window started after (`PruneRequest.journalAfter`, 0 at the start of a run). */
  readonly after: number;
  /** The highest position the window examined; `after` when it was empty. */
  readonly lastExamined: number;
  /** True when no entry lies after `lastExamined`: the window reached the end of the journal. */
  readonly reachesEnd: boolean;
  /** Entries beyond the row cap when the cap's deletes began (after the window's aged entries went). */
  readonly excess: number;
  /** How many of the window's removable entries the cap could delete (the batch's room, at most `excess`). */
  readonly take: number;
  /** How many the cap deleted, the lowest removable entries of the window. */
  readonly capped: number;
  /** The highest position the cap deleted (meaningful when `capped > 0`). */
  readonly lastCapped: number;
  /** True when an entry recorded before the age limit lies after `lastExamined`. */
  readonly agedBeyond: boolean;
}

/** Where the next batch of the run resumes (`PruneBatch.journalAfter`) and whether the journal part is done. */
export interface JournalWindowEnd {
  readonly journalAfter: number;
  readonly done: boolean;
}

/**
 * The end of one windowed journal batch. Its aged removable entries all went (a window holds at
 * most `batchSize`); when the cap stopped at its room with entries still beyond the cap, the
 * removable entries of the window above the last one it deleted may remain, so the next batch
 * resumes there, else after the window. The journal part is done when the window reached the
 * end of the journal, or when the journal is within its cap and nothing after the window is
 * older than the age limit; never while the cap stopped at its room. Every batch that is not
 * done resumes above `after`, so a run ends after at most one pass over the journal.
 */
export function journalWindowEnd(facts: JournalWindowFacts): JournalWindowEnd {
  const stoppedAtRoom = facts.capped > 0 && facts.capped === facts.take && facts.excess > facts.capped;
  if (stoppedAtRoom) return { journalAfter: facts.lastCapped, done: false };
  const withinCap = facts.excess <= facts.capped;
  return { journalAfter: facts.lastExamined, done: facts.reachesEnd || (withinCap && !facts.agedBeyond) };
}

/** What journal retention needs of an entry. */
export type JournalRetentionEntry = Pick<CursorJournalEntry, 'position' | 'watcher' | 'target' | 'recordedAt'>;

export interface JournalPruneInput {
  /** The journal, in position order. */
  readonly entries: readonly JournalRetentionEntry[];
  /** True when the pair has a cursor now: its latest entry is kept whatever its age. */
  readonly isLive: (watcher: SessionKey, target: SessionKey) => boolean;
  /** Entries recorded before it go (the prune request's now - maxAgeMs). */
  readonly cutoff: number;
  /** Then the oldest entries beyond this many go. */
  readonly maxRows: number;
  /** The batch examines at most this many entries, so at most this many go. */
  readonly batchSize: number;
  /** The batch examines the entries after this position (`PruneRequest.journalAfter`; 0: from the start). */
  readonly after?: number;
  /**
   * The pair's latest position in the journal, from an index the store keeps, so a batch reads
   * only its window; absent, it is found with one pass over `entries`.
   */
  readonly latestOf?: (watcher: SessionKey, target: SessionKey) => number | undefined;
}

/**
 * Journal retention follows the signal log's: entries older than the age limit, then the oldest
 * beyond the row cap — except the latest entry of every live pair, which stays so the live
 * cursor can always be replayed. Entries of removed pairs go like events. One batch examines a
 * window, the first `batchSize` entries after `after`: its removable entries older than the age
 * limit, then its lowest removable ones while the journal is over its cap (counting every entry,
 * kept ones too); `journalAfter` is where the run's next batch resumes and `done` whether the
 * journal part of the run is over (see journalWindowEnd).
 */
export function planJournalPrune(input: JournalPruneInput): { readonly positions: readonly number[]; readonly done: boolean; readonly journalAfter: number } {
  const after = input.after ?? 0;
  const { entries } = input;
  const latestOf = input.latestOf ?? latestPositions(entries);
  const from = firstAfter(entries, after);
  const end = Math.min(entries.length, from + Math.max(0, input.batchSize));
  const removable: JournalRetentionEntry[] = [];
  for (let i = from; i < end; i++) {
    const entry = entries[i] as JournalRetentionEntry;
    if (!input.isLive(entry.watcher, entry.target) || latestOf(entry.watcher, entry.target) !== entry.position) removable.push(entry);
  }
  const aged = removable.filter((entry) => entry.recordedAt < input.cutoff);
  const excess = Math.max(0, entries.length - aged.length - input.maxRows);
  const take = Math.min(input.batchSize - aged.length, excess);
  const capped = take > 0 ? removable.filter((entry) => entry.recordedAt >= input.cutoff).slice(0, take) : [];
  const reachesEnd = end === entries.length;
  // Whether an aged entry lies beyond the window is asked only when it decides `done` (the
  // journal within its cap, its end not reached): it reads the rest of the journal.
  const asksAged = !reachesEnd && excess <= capped.length;
  const windowEnd = journalWindowEnd({
    after,
    lastExamined: end > from ? (entries[end - 1] as JournalRetentionEntry).position : after,
    reachesEnd,
    excess,
    take,
    capped: capped.length,
    lastCapped: capped[capped.length - 1]?.position ?? after,
    agedBeyond: asksAged && someAgedFrom(entries, end, input.cutoff),
  });
  return { positions: [...aged, ...capped].map((entry) => entry.position), ...windowEnd };
}

/** Each pair's latest position in `entries` (one pass over them), as JournalPruneInput.latestOf answers it. */
function latestPositions(entries: readonly JournalRetentionEntry[]): (watcher: SessionKey, target: SessionKey) => number | undefined {
  const latest = new Map<string, number>();
  for (const entry of entries) latest.set(pairKey(entry.watcher, entry.target), entry.position);
  return (watcher, target) => latest.get(pairKey(watcher, target));
}

/** Whether an entry from index `from` on was recorded before `cutoff` (read in place: no copy of the journal's rest). */
function someAgedFrom(entries: readonly JournalRetentionEntry[], from: number, cutoff: number): boolean {
  for (let i = from; i < entries.length; i++) if ((entries[i] as JournalRetentionEntry).recordedAt < cutoff) return true;
  return false;
}

/** The index of the first entry (in position order) with a position above `after`; `entries.length` when none. */
function firstAfter(entries: readonly JournalRetentionEntry[], after: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as JournalRetentionEntry).position > after) high = middle;
    else low = middle + 1;
  }
  return low;
}
