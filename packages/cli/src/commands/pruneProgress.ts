// The prune command's progress on a terminal: one cli-progress bar on stderr, events pruned out of
// what the dry-run count found at the start (appends meanwhile can make the run a little longer).
// cli-progress is loaded only when a bar is shown, so other commands do not pay for loading it.

/** The bar of one prune run. */
export interface PruneProgress {
  /** Events deleted so far. */
  update(eventsDeleted: number): void;
  /** Stops the bar, leaving its last state on the terminal. */
  stop(): void;
}

/** Starts a bar on `stream` (a terminal) for `total` events; callers only start one on a terminal. */
export async function startProgress(stream: NodeJS.WritableStream, total: number): Promise<PruneProgress> {
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({
    stream,
    format: 'pruning [{bar}] {value}/{total} events | {percentage}% | ETA {eta_formatted}',
    hideCursor: true,
    clearOnComplete: false,
  });
  bar.start(Math.max(total, 1), 0);
  return {
    update: (eventsDeleted) => {
      // The log can grow while it is pruned: the total follows, the bar never overflows.
      if (eventsDeleted > bar.getTotal()) bar.setTotal(eventsDeleted);
      bar.update(eventsDeleted);
    },
    stop: () => bar.stop(),
  };
}
