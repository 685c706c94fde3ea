// One gateway process for the delivery tests: a facade on a store, whose wake port notes, at the
// moment of each wake, how many notices `pending` shows its watcher (what a wake handler that
// checks would find), and marks the watcher for the gateway's next wake-driven turn.
import type { StateStore } from '@session-state/domain';

import { createSessionStateAwareness, type SessionStateAwareness, type SessionStateAwarenessOptions } from '../../src/index.js';
import { afterStartupWakes } from './harness.js';

/** One wake: its watcher and the notices `pending(watcher)` held when it was called (-1: before the facade existed). */
export interface SeenWake {
  readonly watcher: string;
  readonly pending: number;
}

export interface GatewayProcess {
  readonly awareness: SessionStateAwareness;
  /** Every wake, in order. */
  readonly wakes: SeenWake[];
  /** Watchers woken since the gateway last took this set (its wake-driven turns). */
  readonly woken: Set<string>;
}

const quiet = { warn: () => undefined, error: () => undefined };

/**
 * A facade on `store` with the options given (a logger that drops everything unless one is given); resolves after the
 * wakes its start-up owes. `onWake` is told each wake as it happens.
 */
export async function startGateway(store: StateStore, options: Omit<SessionStateAwarenessOptions, 'store' | 'wake'>, onWake?: (wake: SeenWake) => void): Promise<GatewayProcess> {
  let awareness: SessionStateAwareness | undefined;
  const wakes: SeenWake[] = [];
  const woken = new Set<string>();
  awareness = await createSessionStateAwareness({
    logger: quiet,
    ...options,
    store,
    wake: (watcher) => {
      const seen = { watcher, pending: awareness === undefined ? -1 : awareness.pending(watcher).length };
      wakes.push(seen);
      woken.add(watcher);
      onWake?.(seen);
    },
  });
  await afterStartupWakes();
  return { awareness, wakes, woken };
}

/** The wakes whose watcher had no notice to take at that moment. */
export const meaninglessWakes = (wakes: readonly SeenWake[]): SeenWake[] => wakes.filter((wake) => wake.pending <= 0);
