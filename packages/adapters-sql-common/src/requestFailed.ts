// How both adapters' group commit tells a request's own failure from a failure of the batch's
// transaction: the request's error is carried out of the transaction wrapped, so the
// transaction rolls back, and the batch answers that request `failed` instead of rejecting.
import { storeError, type AppendOutcome } from '@session-state/domain';

/** Carries the error of a request out of its transaction, so the transaction rolls back. */
export class RequestFailed extends Error {
  constructor(readonly failure: unknown) {
    super('the request failed');
  }
}

/** The outcome of a request that failed alone: a tagged StoreError naming `append`. */
export function failedOutcome(error: unknown): AppendOutcome {
  return { type: 'failed', error: storeError('append', error instanceof RequestFailed ? error.failure : error) };
}
