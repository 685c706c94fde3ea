// How one batch of journal retention ends: where the run's next batch resumes and whether the
// journal part of the run is done, from what the batch found in its window. Every store decides
// this the same way (planJournalPrune in memory, the SQL adapters from their statements' counts).

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
