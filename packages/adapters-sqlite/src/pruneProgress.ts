// Stops a prune caller that repeats a call without progress. A run must pass each batch's
// `journalAfter` to the next (the facade does); a caller that calls again from the same journal
// position examines the same window each time, and when that window holds only entries that must
// stay, no call deletes anything or ever says done. Each such call answers within the caller's
// turn (microtasks only), so a loop of them never lets a timer run: it spins for ever.
import type { Logger, PruneBatch, PruneRequest } from '@session-state/domain';

/** Calls in a row from the same journal position that deleted nothing before the store says `done`. */
export const PRUNE_CALLS_WITHOUT_PROGRESS = 3;

export interface PruneProgress {
  /** The batch as the caller gets it: `done` once PRUNE_CALLS_WITHOUT_PROGRESS calls repeated themselves without progress (logged once a streak). */
  settle(request: PruneRequest, batch: PruneBatch, removed: number): PruneBatch;
}

export function createPruneProgress(logger: Logger): PruneProgress {
  // The calls in a row that deleted nothing, were not done and started where the one before did.
  let calls = 0;
  let lastStart: number | undefined;
  return {
    settle(request, batch, removed) {
      const start = request.journalAfter ?? 0;
      if (removed > 0 || batch.done) {
        calls = 0;
        lastStart = undefined;
        return batch;
      }
      calls = start === lastStart ? calls + 1 : 1;
      lastStart = start;
      if (calls < PRUNE_CALLS_WITHOUT_PROGRESS) return batch;
      if (calls === PRUNE_CALLS_WITHOUT_PROGRESS) {
        logger.warn(
          { operation: 'prune', calls, journalAfter: start },
          'prune: calls from the same journal position deleted nothing (the entries there must stay), so the run is reported done',
        );
      }
      return { ...batch, done: true };
    },
  };
}
