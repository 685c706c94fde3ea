// Group commit: requests submitted while no batch is on its way join one bounded batch, flushed
// as a whole; each caller gets its own outcome. Requests beyond the bound go into the next batch,
// and every batch of such a burst lets a turn of the event loop pass before it is flushed.
import { called, nextTurn } from './lane.js';

/** How big one batch may grow. */
export interface BatchBounds {
  /** At most this many requests in one batch. */
  readonly maxRequests: number;
  /** At most this total weight; a single heavier request is a batch of its own. */
  readonly maxWeight: number;
}

export interface GroupCommitOptions<Request> {
  readonly bounds: BatchBounds;
  /** The weight of one request (e.g. its bytes); must not throw. */
  readonly weigh: (request: Request) => number;
}

type Waiting<Outcome> = { readonly resolve: (outcome: Outcome) => void; readonly reject: (error: unknown) => void };
/** `inBurst`: part of a burst, so a turn of the event loop passes before it is flushed. */
type Batch<Request, Outcome> = { readonly requests: Request[]; readonly waiting: Waiting<Outcome>[]; weight: number; inBurst: boolean };

/**
 * `schedule` runs a flush (in the lane; requests arriving while it waits still join the batch);
 * `flush` returns one outcome per request and should not reject: `onFlushError` covers a bug there.
 */
export function createGroupCommit<Request, Outcome>(
  schedule: (flush: () => Promise<void>) => void,
  flush: (requests: readonly Request[]) => Promise<readonly Outcome[]>,
  onFlushError: (requests: readonly Request[], error: unknown) => readonly Outcome[],
  options: GroupCommitOptions<Request>,
): { submit(request: Request): Promise<Outcome>; flushNow(): void } {
  const { bounds, weigh } = options;
  // The batch new submits join, and the batches not yet handed to `schedule`, oldest first.
  let open: Batch<Request, Outcome> | undefined;
  let unhanded: Batch<Request, Outcome>[] = [];

  // Every caller settles: a missing outcome becomes a failure outcome.
  const settle = ({ requests, waiting }: Batch<Request, Outcome>, outcomes: readonly Outcome[] | undefined, failure?: { readonly error: unknown }): void => {
    for (let i = 0; i < waiting.length; i += 1) {
      const { resolve, reject } = waiting[i] as Waiting<Outcome>;
      try {
        resolve(outcomes?.[i] ?? (onFlushError([requests[i] as Request], failure ? failure.error : new Error('no outcome for this request'))[0] as Outcome));
      } catch (error) {
        reject(error);
      }
    }
  };

  const flushBatch = (batch: Batch<Request, Outcome>): Promise<void> => {
    if (open === batch) open = undefined;
    if (batch.requests.length === 0) return Promise.resolve();
    return called(() => flush(batch.requests)).then(
      (outcomes) => settle(batch, outcomes),
      (error: unknown) => settle(batch, undefined, { error }),
    );
  };

  const run = (batch: Batch<Request, Outcome>) => (): Promise<void> => (batch.inBurst ? nextTurn().then(() => flushBatch(batch)) : flushBatch(batch));

  const handOver = (): void => {
    const batches = unhanded;
    unhanded = [];
    for (const batch of batches) schedule(run(batch));
  };

  const openBatch = (inBurst: boolean): Batch<Request, Outcome> => {
    const batch: Batch<Request, Outcome> = { requests: [], waiting: [], weight: 0, inBurst };
    open = batch;
    unhanded.push(batch);
    // The end-of-tick hand-over; nothing to do when flushNow took it first.
    if (unhanded.length === 1) queueMicrotask(handOver);
    return batch;
  };

  return {
    /** Adds the request to the open batch (opening one if needed) and resolves with its outcome. */
    submit(request) {
      return new Promise<Outcome>((resolve, reject) => {
        const weight = weigh(request);
        let batch = open;
        if (batch !== undefined && batch.requests.length > 0 && (batch.requests.length >= bounds.maxRequests || batch.weight + weight > bounds.maxWeight)) {
          batch.inBurst = true;
          batch = openBatch(true);
        } else if (batch === undefined) {
          batch = openBatch(false);
        }
        batch.requests.push(request);
        batch.waiting.push({ resolve, reject });
        batch.weight += weight;
      });
    },
    /** Hands every open batch to `schedule` now, so an operation called after a `submit` runs after it. */
    flushNow() {
      handOver();
      // Sealed: a later submit must not overtake the operation that called flushNow.
      open = undefined;
    },
  };
}
