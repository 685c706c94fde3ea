// The arithmetic of one bounded retention batch, the same in both adapters (their SQL differs:
// SKIP LOCKED in PostgreSQL, session-bounded batches and checkpoints in SQLite).
import type { PruneRequest } from '@session-state/domain';

/**
 * The age cutoff of a batch. A non-finite cutoff (an infinite age limit) prunes nothing by age
 * and expires no cursor (`finite` false); `byAge` is whether this batch deletes by age at all.
 */
export function retentionCutoff(request: PruneRequest): { readonly cutoff: number; readonly finite: boolean; readonly byAge: boolean } {
  const cutoff = request.now - request.maxAgeMs;
  const finite = Number.isFinite(cutoff);
  return { cutoff, finite, byAge: finite && request.batchSize > 0 };
}

/**
 * How many of the lowest rows the row cap deletes in this batch: the rows beyond `maxRows`
 * (counted honestly each batch, as sequences are not contiguous), at most what the batch has
 * left after `alreadyDeleted`; 0 when none.
 */
export function rowCapTake(total: number, request: PruneRequest, alreadyDeleted: number): number {
  const budget = request.batchSize - alreadyDeleted;
  const excess = total - request.maxRows;
  return budget > 0 && excess > 0 ? Math.min(budget, excess) : 0;
}
