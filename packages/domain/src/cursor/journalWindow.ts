// Journal retention: which entries one batch removes, where the run's next batch resumes and
// whether the journal part of the run is done. A pair's entries go oldest first, so what a pair
// keeps is always the end of its history, which replay folds from its first retained entry.
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

export type JournalRetentionEntry = Pick<CursorJournalEntry, 'position' | 'watcher' | 'target' | 'recordedAt'>;

/** An entry of a retention window, as a store reads it. */
export interface JournalWindowEntry extends Omit<JournalRetentionEntry, 'watcher' | 'target'> {
  readonly watcher: string;
  readonly target: string;
  /** Retention may take it: it is not the latest entry of a pair that has a cursor, and no entry of its pair lies before the window. */
  readonly removable: boolean;
}

export interface JournalWindowInput {
  /** At most `batchSize` entries after `after`, in position order. */
  readonly window: readonly JournalWindowEntry[];
  readonly after: number;
  /** Entries beyond the row cap before the batch (a count up to `batchSize + 1` is enough). */
  readonly beyondCap: number;
  readonly cutoff: number;
  readonly batchSize: number;
}

/** One window: its aged entries, then the lowest beyond the cap; an entry goes only with every older entry of its pair. */
export function planJournalWindow(input: JournalWindowInput): { readonly positions: readonly number[]; readonly facts: Omit<JournalWindowFacts, 'reachesEnd' | 'agedBeyond'> } {
  const { window, after } = input;
  // Pairs with an entry in the window that the age limit leaves: their later entries wait for the cap.
  const held = new Set<string>();
  const aged: number[] = [];
  const rest: number[] = [];
  for (const entry of window) {
    const pair = pairKey(entry.watcher, entry.target);
    if (entry.removable && entry.recordedAt < input.cutoff && !held.has(pair)) aged.push(entry.position);
    else {
      held.add(pair);
      if (entry.removable) rest.push(entry.position);
    }
  }
  const excess = Math.max(0, input.beyondCap - aged.length);
  const take = Math.min(input.batchSize - aged.length, excess);
  const capped = rest.slice(0, take);
  const lastExamined = window[window.length - 1]?.position ?? after;
  const lastCapped = capped[capped.length - 1] ?? after;
  return { positions: [...aged, ...capped], facts: { after, lastExamined, excess, take, capped: capped.length, lastCapped } };
}

export interface JournalPruneInput {
  /** The whole journal, in position order. */
  readonly entries: readonly JournalRetentionEntry[];
  /** True when the pair has a cursor now: its latest entry is kept. */
  readonly isLive: (watcher: SessionKey, target: SessionKey) => boolean;
  readonly cutoff: number;
  readonly maxRows: number;
  readonly batchSize: number;
  readonly after?: number;
}

/** One batch of journal retention over a whole journal held in memory: its window after `after`, planned by planJournalWindow. */
export function planJournalPrune(input: JournalPruneInput): { readonly positions: readonly number[] } & JournalWindowEnd {
  const after = input.after ?? 0;
  const { entries, cutoff } = input;
  const latest = new Map(entries.map((entry) => [pairKey(entry.watcher, entry.target), entry.position]));
  const from = entries.findIndex((entry) => entry.position > after);
  const start = from === -1 ? entries.length : from;
  const end = Math.min(entries.length, start + input.batchSize);
  const before = new Set(entries.slice(0, start).map((entry) => pairKey(entry.watcher, entry.target)));
  const window = entries.slice(start, end).map((entry) => {
    const pair = pairKey(entry.watcher, entry.target);
    const kept = input.isLive(entry.watcher, entry.target) && latest.get(pair) === entry.position;
    return { ...entry, removable: !kept && !before.has(pair) };
  });
  const { positions, facts } = planJournalWindow({ window, after, beyondCap: entries.length - input.maxRows, cutoff, batchSize: input.batchSize });
  const reachesEnd = end === entries.length;
  const agedBeyond = !reachesEnd && entries.slice(end).some((entry) => entry.recordedAt < cutoff);
  return { positions, ...journalWindowEnd({ ...facts, reachesEnd, agedBeyond }) };
}
