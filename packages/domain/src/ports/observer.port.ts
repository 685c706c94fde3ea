// The observer port: timings the facade reports as they happen, for a metrics exporter (such as
// @session-state/prometheus) to turn into histograms. Counts and durations only: never a session
// key, a summary or a payload. Both methods are optional; a throw is logged once and ignored.

/** One append batch (group commit): one store call carrying one or more `record`/`childSpawned` appends. */
export interface AppendBatchObservation {
  /** The appends in the batch. */
  readonly appends: number;
  /** How long the store call took, in seconds (the wait for the operation lane excluded). */
  readonly durationSeconds: number;
  /** True when the store call itself failed, so every append in the batch failed. */
  readonly failed: boolean;
}

/** One completed prune run (background or `prune()`): its batches from the first to the last. */
export interface PruneRunObservation {
  /** From the run's start to its end, in seconds: its store calls, the lane waits and the yields between batches. */
  readonly durationSeconds: number;
  readonly eventsDeleted: number;
  readonly cursorsExpired: number;
}

/**
 * Receives the facade's timings (`options.observer`). Called synchronously on the facade's own
 * path, so it must be cheap; what it throws never changes an operation's result.
 *
 * @example observer: { appendBatch: ({ durationSeconds }) => histogram.observe(durationSeconds) }
 */
export interface AwarenessObserver {
  /** After each append batch's store call, committed or failed. */
  readonly appendBatch?: ((observation: AppendBatchObservation) => void) | undefined;
  /** After each prune run that completed (a failed run is logged instead). */
  readonly pruneRun?: ((observation: PruneRunObservation) => void) | undefined;
}
