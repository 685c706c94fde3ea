// Group commit: requests submitted while no batch is on its way join one batch, which is handed
// to `flush` as a whole; each caller gets its own outcome. A batch is bounded (by count and by
// weight), so no single flush blocks the event loop for long: requests beyond the bound go into
// the next batch, in call order, and every batch of such a burst, the first too, lets a turn of
// the event loop pass before it is flushed (the first would otherwise be written in the caller's
// own turn, after its issuing loop).

/** How big one batch may grow. */
export interface BatchBounds {
  /** At most this many requests in one batch. */
  readonly maxRequests: number;
  /** At most this total weight (see `weigh`); a single heavier request is a batch of its own. */
  readonly maxWeight: number;
}

export interface GroupCommitOptions<Request> {
  readonly bounds: BatchBounds;
  /** The weight of one request (e.g. its bytes); must not throw. */
  readonly weigh: (request: Request) => number;
}

export interface GroupCommit<Request, Outcome> {
  /** Adds the request to the open batch (opening one if needed) and resolves with its outcome. */
  submit(request: Request): Promise<Outcome>;
  /**
   * Hands every open or full batch to `schedule` now instead of at the end of the tick, so an
   * operation called after a `submit` in the same tick is scheduled after its batch (call order).
   */
  flushNow(): void;
}

interface Waiting<Request, Outcome> {
  readonly request: Request;
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

interface Batch<Request, Outcome> {
  readonly items: Waiting<Request, Outcome>[];
  weight: number;
  /**
   * Part of a burst: opened because the batch before it was full, or full itself (a request went
   * on to the next). It lets a turn of the event loop pass before it is flushed, so a burst is
   * many short blocks instead of one long one.
   */
  inBurst: boolean;
}

/** One turn of the event loop: timers and I/O run before the next batch is written. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * @param schedule runs the flush, e.g. inside the operation lane; the batch is taken when the
 *   flush starts, so requests arriving while it waits in the lane still join it (up to the bounds).
 * @param flush writes one batch and returns one outcome per request, in order; it must not
 *   reject (map failures to outcomes), `onFlushError` covers a bug there.
 * @param options the bounds of one batch and how a request is weighed.
 */
export function createGroupCommit<Request, Outcome>(
  schedule: (flush: () => Promise<void>) => void,
  flush: (requests: readonly Request[]) => Promise<readonly Outcome[]>,
  onFlushError: (requests: readonly Request[], error: unknown) => readonly Outcome[],
  options: GroupCommitOptions<Request>,
): GroupCommit<Request, Outcome> {
  const { bounds, weigh } = options;
  /** The batch new submits join, until it runs, is full, or is sealed by `flushNow`. */
  let open: Batch<Request, Outcome> | undefined;
  /** Batches not yet handed to `schedule`, oldest first (the open one may be the last). */
  let unhanded: Batch<Request, Outcome>[] = [];

  const run = (batch: Batch<Request, Outcome>) => async (): Promise<void> => {
    if (batch.inBurst) await nextTurn();
    if (open === batch) open = undefined;
    const items = batch.items;
    if (items.length === 0) return;
    const requests = items.map((w) => w.request);
    let outcomes: readonly Outcome[] | undefined;
    // Built only when needed: an Error captures a stack trace, which costs more than a whole
    // batch of one on the memory store.
    let failure: unknown;
    let failed = false;
    try {
      outcomes = await flush(requests);
    } catch (error) {
      failure = error;
      failed = true;
    }
    // Every caller settles, whatever happened: a missing outcome becomes a failure outcome.
    for (let i = 0; i < items.length; i += 1) {
      const waiting = items[i] as Waiting<Request, Outcome>;
      try {
        const outcome = outcomes?.[i];
        if (outcome !== undefined) waiting.resolve(outcome);
        else waiting.resolve(onFlushError([waiting.request], failed ? failure : new Error('no outcome for this request'))[0] as Outcome);
      } catch (error) {
        waiting.reject(error);
      }
    }
  };

  /** Hands every batch not yet handed over to `schedule`, in the order they were opened. */
  const handOver = (): void => {
    if (unhanded.length === 0) return;
    const batches = unhanded;
    unhanded = [];
    for (const batch of batches) schedule(run(batch));
  };

  const openBatch = (inBurst: boolean): Batch<Request, Outcome> => {
    const batch: Batch<Request, Outcome> = { items: [], weight: 0, inBurst };
    open = batch;
    unhanded.push(batch);
    // The end-of-tick hand-over; it finds nothing to do when an earlier one (or flushNow) took it.
    if (unhanded.length === 1) queueMicrotask(handOver);
    return batch;
  };

  return {
    submit(request) {
      return new Promise<Outcome>((resolve, reject) => {
        const weight = weigh(request);
        let batch = open;
        if (batch !== undefined && batch.items.length > 0 && (batch.items.length >= bounds.maxRequests || batch.weight + weight > bounds.maxWeight)) {
          // Full: this request starts the next batch of the burst.
          batch.inBurst = true;
          batch = openBatch(true);
        } else if (batch === undefined) {
          batch = openBatch(false);
        }
        batch.items.push({ request, resolve, reject });
        batch.weight += weight;
      });
    },
    flushNow() {
      handOver();
      // Sealed: a submit after the operation that called flushNow must not overtake it.
      open = undefined;
    },
  };
}
