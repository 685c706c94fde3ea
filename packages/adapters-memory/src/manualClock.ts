// A clock that only moves when a test tells it to, so retention and touch times are deterministic.
import type { Clock } from '@session-state/domain';

/** A Clock whose time is set by hand; it may be moved backwards to test clock skew. */
export interface ManualClock extends Clock {
  /** Moves the clock by `ms` (negative moves it back); returns the new time. */
  advance(ms: number): number;
  /** Sets the clock to `ms`; returns it. */
  set(ms: number): number;
}

function checkTime(field: string, value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`invalid ${field}: expected a safe integer of milliseconds, got ${String(value)}`);
  }
  return value;
}

/**
 * Creates a manual clock starting at `startMs` (default 0).
 *
 * @example const clock = createManualClock(Date.UTC(2026, 10, 29)); clock.advance(60_000);
 */
export function createManualClock(startMs = 0): ManualClock {
  let nowMs = checkTime('startMs', startMs);
  return {
    now: () => nowMs,
    advance: (ms) => (nowMs = checkTime('now + ms', nowMs + checkTime('ms', ms))),
    set: (ms) => (nowMs = checkTime('ms', ms)),
  };
}
