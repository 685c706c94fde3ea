// A prune run as the facade drives it (packages/app retention.ts): each batch's journalAfter
// passed to the next, a turn of the event loop between batches, so timers (Jest's timeout among
// them) keep running; and at most `maxBatches` batches, so a run that never ends fails the test
// at once instead of spinning until the suite is killed.
import type { PruneBatch, PruneRequest, StateStore } from '@session-state/domain';

/** Runs `request` until a batch is done; calls `onBatch` after each; throws after `maxBatches` batches not done. */
export async function pruneRun(store: StateStore, request: PruneRequest, maxBatches: number, onBatch: (batch: PruneBatch) => void = () => undefined): Promise<number> {
  let journalAfter = request.journalAfter;
  for (let batches = 1; batches <= maxBatches; batches += 1) {
    const batch = await store.prune({ ...request, ...(journalAfter !== undefined ? { journalAfter } : {}) });
    onBatch(batch);
    if (batch.done) return batches;
    journalAfter = batch.journalAfter;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`the prune run was not done after ${maxBatches} batches`);
}
