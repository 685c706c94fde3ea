// Journal retention: which entries one batch removes, where the run's next batch resumes and
// whether the journal part of the run is done. The SQL stores decide the end from their counts.
import type { CursorJournalEntry } from './journal.js';
import { pairKey } from './plans.js';
import type { SessionKey } from '../input/sessionKey.js';

/** What one journal retention batch found in its window (at most `batchSize` entries after `after`). */
export interface JournalWindowFacts {
  readonly after: number;
  /** The highest position examined; `after` when the window was empty. */
  readonly lastExamined: number;
  readonly reachesEnd: boolean;
  /** Entries beyond the row cap once the window's aged entries went. */
  readonly excess: number;
  /** How many the cap could delete (the batch's room, at most `excess`), and how many it did. */
  readonly take: number;
  readonly capped: number;
  readonly lastCapped: number;
  /** True when an entry older than the age limit lies after `lastExamined`. */
  readonly agedBeyond: boolean;
}

/** Where the run's next batch resumes and whether the journal part is done. */
export interface JournalWindowEnd {
  readonly journalAfter: number;
  readonly done: boolean;
}

/** The end of one batch: resume above the last entry the cap deleted while the cap still binds, else after the window. */
export function journalWindowEnd(facts: JournalWindowFacts): JournalWindowEnd {
  const stoppedAtRoom = facts.capped > 0 && facts.capped === facts.take && facts.excess > facts.capped;
  if (stoppedAtRoom) return { journalAfter: facts.lastCapped, done: false };
  const withinCap = facts.excess <= facts.capped;
  return { journalAfter: facts.lastExamined, done: facts.reachesEnd || (withinCap && !facts.agedBeyond) };
}

/** What journal retention needs of an entry. */
export type JournalRetentionEntry = Pick<CursorJournalEntry, 'position' | 'watcher' | 'target' | 'recordedAt'>;

export interface JournalPruneInput {
  /** In position order. */
  readonly entries: readonly JournalRetentionEntry[];
  /** True when the pair has a cursor now: its latest entry is kept. */
  readonly isLive: (watcher: SessionKey, target: SessionKey) => boolean;
  /** Entries recorded before it go. */
  readonly cutoff: number;
  readonly maxRows: number;
  readonly batchSize: number;
  readonly after?: number;
  /** The pair's latest position, from a store's index; found with one pass over `entries` when absent. */
  readonly latestOf?: (watcher: SessionKey, target: SessionKey) => number | undefined;
}

/** One batch of journal retention: aged entries, then the oldest beyond the cap, never a live pair's latest. */
export function planJournalPrune(input: JournalPruneInput): { readonly positions: readonly number[]; readonly done: boolean; readonly journalAfter: number } {
  const after = input.after ?? 0;
  const { entries } = input;
  const latestOf = input.latestOf ?? latestPositions(entries);
  const from = firstAfter(entries, after);
  const end = Math.min(entries.length, from + Math.max(0, input.batchSize));
  const isKept = (e: JournalRetentionEntry): boolean => input.isLive(e.watcher, e.target) && latestOf(e.watcher, e.target) === e.position;
  const removable = entries.slice(from, end).filter((entry) => !isKept(entry));
  const aged = removable.filter((entry) => entry.recordedAt < input.cutoff);
  const excess = Math.max(0, entries.length - aged.length - input.maxRows);
  const take = Math.min(input.batchSize - aged.length, excess);
  const capped = take > 0 ? removable.filter((entry) => entry.recordedAt >= input.cutoff).slice(0, take) : [];
  const reachesEnd = end === entries.length;
  // Asked only when it decides `done`: it reads the rest of the journal.
  const asksAged = !reachesEnd && excess <= capped.length;
  const lastExamined = end > from ? (entries[end - 1] as JournalRetentionEntry).position : after;
  const lastCapped = capped[capped.length - 1]?.position ?? after;
  const agedBeyond = asksAged && someAgedFrom(entries, end, input.cutoff);
  const windowEnd = journalWindowEnd({ after, lastExamined, reachesEnd, excess, take, capped: capped.length, lastCapped, agedBeyond });
  return { positions: [...aged, ...capped].map((entry) => entry.position), ...windowEnd };
}

function latestPositions(entries: readonly JournalRetentionEntry[]): (watcher: SessionKey, target: SessionKey) => number | undefined {
  const latest = new Map<string, number>();
  for (const entry of entries) latest.set(pairKey(entry.watcher, entry.target), entry.position);
  return (watcher, target) => latest.get(pairKey(watcher, target));
}

function someAgedFrom(entries: readonly JournalRetentionEntry[], from: number, cutoff: number): boolean {
  for (let i = from; i < entries.length; i++) if ((entries[i] as JournalRetentionEntry).recordedAt < cutoff) return true;
  return false;
}

/** The index of the first entry above `after` (binary search). */
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
