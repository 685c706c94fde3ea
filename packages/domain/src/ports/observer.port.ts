// The observer port: counts and durations the facade reports for a metrics exporter, never content.

/** One append batch (group commit): one store call carrying one or more `record`/`childSpawned` appends. */
export interface AppendBatchObservation {
  readonly appends: number;
  /** The store call, in seconds (the lane wait excluded). */
  readonly durationSeconds: number;
  readonly failed: boolean;
}

/** One completed prune run (background or `prune()`): its batches from the first to the last. */
export interface PruneRunObservation {
  /** From the run's start to its end, in seconds. */
  readonly durationSeconds: number;
  readonly eventsDeleted: number;
  readonly cursorsExpired: number;
}

/** Receives the facade's timings synchronously, so it must be cheap; a throw never changes a result. */
export interface AwarenessObserver {
  /** After each append batch's store call, committed or failed. */
  readonly appendBatch?: ((observation: AppendBatchObservation) => void) | undefined;
  /** After each prune run that completed (a failed run is logged instead). */
  readonly pruneRun?: ((observation: PruneRunObservation) => void) | undefined;
}
