// Group commit: requests submitted while no batch is on its way join one batch, which is handed
// to `flush` as a whole; each caller gets its own outcome back.

export interface GroupCommit<Request, Outcome> {
  /** Adds the request to the open batch (opening one if needed) and resolves with its outcome. */
  submit(request: Request): Promise<Outcome>;
  /**
   * Hands the open batch to `schedule` now instead of at the end of the tick, so an operation
   * called after a `submit` in the same tick is scheduled after its batch (call order).
   */
  flushNow(): void;
}

interface Waiting<Request, Outcome> {
  readonly request: Request;
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * @param schedule runs the flush, e.g. inside the operation lane; the batch is taken when the
 *   flush starts, so requests arriving while it waits in the lane still join it.
 * @param flush writes one batch and returns one outcome per request, in order; it must not
 *   reject (map failures to outcomes), `onFlushError` covers a bug there.
 */
export function createGroupCommit<Request, Outcome>(
  schedule: (flush: () => Promise<void>) => void,
  flush: (requests: readonly Request[]) => Promise<readonly Outcome[]>,
  onFlushError: (requests: readonly Request[], error: unknown) => readonly Outcome[],
): GroupCommit<Request, Outcome> {
  /** The batch new submits join; `handed` once it is scheduled (it still takes joiners until it runs or is sealed). */
  let open: { readonly items: Waiting<Request, Outcome>[]; handed: boolean } | undefined;

  const run = (batch: { readonly items: Waiting<Request, Outcome>[] }) => async (): Promise<void> => {
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

  const handOver = (batch: { readonly items: Waiting<Request, Outcome>[]; handed: boolean }): void => {
    // The end-of-tick hand-over finds nothing to do when flushNow already handed the batch over.
    if (batch.handed) return;
    batch.handed = true;
    schedule(run(batch));
  };

  return {
    submit(request) {
      return new Promise<Outcome>((resolve, reject) => {
        if (open === undefined) {
          const batch = { items: [] as Waiting<Request, Outcome>[], handed: false };
          open = batch;
          queueMicrotask(() => handOver(batch));
        }
        open.items.push({ request, resolve, reject });
      });
    },
    flushNow() {
      if (open === undefined) return;
      handOver(open);
      // Sealed: a submit after the operation that called flushNow must not overtake it.
      open = undefined;
    },
  };
}
