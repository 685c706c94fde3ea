// Issue 12 item 4: one bad clock reading, anywhere. A clock port that once throws or returns
// something that is not a finite number (NaN, Infinity, a string, a bigint, a symbol, an object)
// fails at most the one operation that read it, with a ClockError and nothing written; a
// committed append is never reported as failed (a retrying caller would write it twice); the
// retention schedule logs the bad reading and skips it; and every later operation works.
import type { Clock, StateStore } from '@session-state/domain';
import { STORE_KINDS, type StoreKind } from '@session-state/testkit';

import { ClockError, createSessionStateAwareness, type SessionStateAwareness } from '../../src/index.js';
import { CHILD, humanTurn, PARENT, PEER, recordingLogger, START, type RecordingLogger } from '../support/harness.js';

// --- the clock ---------------------------------------------------------------------------------

const BAD_READINGS: ReadonlyArray<readonly [string, () => unknown]> = [
  ['returns NaN', () => Number.NaN],
  ['returns Infinity', () => Number.POSITIVE_INFINITY],
  ['returns -Infinity', () => Number.NEGATIVE_INFINITY],
  ['returns 1e300', () => 1e300],
  ['returns a numeric string', () => String(START)],
  ['returns a bigint', () => BigInt(START)],
  ['returns a symbol', () => Symbol('now')],
  ['returns undefined', () => undefined],
  ['returns null', () => null],
  ['returns a Date', () => new Date(START)],
  [
    'returns an object whose valueOf throws',
    () => ({
      valueOf(): number {
        throw new Error('valueOf');
      },
    }),
  ],
  [
    'throws',
    () => {
      throw new Error('clock source unavailable');
    },
  ],
];

interface CountingClock extends Clock {
  readonly readings: () => number;
}

/** A clock one second ahead per reading, whose reading number `badAt` (1-based) is `bad()` instead. */
function clockBadAt(badAt: number, bad: () => unknown): CountingClock {
  let readings = 0;
  return {
    now() {
      readings += 1;
      if (readings === badAt) return bad() as number;
      return START + readings * 1000;
    },
    readings: () => readings,
  };
}

// --- the scenario --------------------------------------------------------------------------

/** What a gateway does: each operation tried, and tried once more if it failed. */
interface Run {
  /** Failures seen (first attempts), each with the operation's name. */
  readonly failures: { readonly operation: string; readonly error: unknown }[];
  readonly logger: RecordingLogger;
  awareness?: SessionStateAwareness;
}

/** Tries `op`; a rejection or an `{ ok: false }` result is a failure, returned. */
async function attempt<T>(op: () => Promise<T>): Promise<{ readonly value?: T; readonly error?: unknown }> {
  try {
    const value = await op();
    const failed = value as { readonly ok?: unknown; readonly error?: unknown };
    if (failed !== null && typeof failed === 'object' && failed.ok === false) return { error: failed.error };
    return { value };
  } catch (error) {
    return { error };
  }
}

/** Runs `op` as a retrying caller would: once more after a failure; the second try must succeed. */
async function withRetry<T>(run: Run, operation: string, op: () => Promise<T>): Promise<T> {
  const first = await attempt(op);
  if (first.error === undefined) return first.value as T;
  run.failures.push({ operation, error: first.error });
  const second = await attempt(op);
  if (second.error !== undefined) throw new Error(`${operation} failed again after one bad clock reading: ${String(second.error)}`);
  return second.value as T;
}

async function scenario(store: StateStore, clock: Clock, run: Run): Promise<void> {
  const awareness = await withRetry(run, 'createSessionStateAwareness', () =>
    createSessionStateAwareness({ store, clock, logger: run.logger }),
  );
  run.awareness = awareness;
  for (let i = 0; i < 3; i += 1) await withRetry(run, 'record', () => awareness.record(humanTurn(CHILD, { summary: `turn ${i}` })));
  await withRetry(run, 'childSpawned', () => awareness.childSpawned({ parentKey: PARENT, childKey: CHILD }));
  await withRetry(run, 'record', () => awareness.record(humanTurn(CHILD, { summary: 'after the spawn' })));
  const drained = await withRetry(run, 'drain', () => awareness.drain(PARENT));
  // A drain that failed consumed nothing: the retry still hands the notice over.
  expect(drained).toHaveLength(1);
  await withRetry(run, 'sent', () => awareness.sent({ senderKey: PEER, deliveredTo: CHILD, watch: true }));
  await withRetry(run, 'prune', () => awareness.prune());
  for (let i = 0; i < 2; i += 1) await withRetry(run, 'record', () => awareness.record(humanTurn(CHILD, { summary: `late ${i}` })));
}

/** Readings a run with a good clock takes: every reading position the tests poison. */
async function readingsOfAGoodRun(kind: StoreKind): Promise<number> {
  const stores = await kind.open();
  const clock = clockBadAt(0, () => 0);
  const run: Run = { failures: [], logger: recordingLogger() };
  try {
    await scenario(stores.store, clock, run);
    expect(run.failures).toEqual([]);
    return clock.readings();
  } finally {
    await run.awareness?.close();
    await stores.cleanup();
  }
}

const CASES_BY_STORE: Record<string, ReadonlyArray<readonly [string, () => unknown]>> = {
  memory: BAD_READINGS,
  // The schedule and the facade are the same over every store; SQLite runs a representative few.
  sqlite: BAD_READINGS.filter(([name]) => ['returns NaN', 'returns a bigint', 'throws'].includes(name)),
};
CASES_BY_STORE['sqlite (node:sqlite)'] = CASES_BY_STORE['sqlite'] ?? [];

describe.each(STORE_KINDS.map((kind) => [kind.name, kind] as const))('one bad clock reading on the %s store', (name, kind) => {
  // The reported case: reading #2 is the start-up prune's. A bigint there became the schedule's
  // last start time, and every later schedule check (bigint minus number) threw inside the flush.
  test.each(['returns a bigint', 'returns NaN', 'throws'])(
    'a clock that %s once during the start-up prune: every later record returns ok:true and is written once',
    async (label) => {
      const bad = new Map(BAD_READINGS).get(label) ?? ((): unknown => Number.NaN);
      const stores = await kind.open();
      const logger = recordingLogger();
      const awareness = await createSessionStateAwareness({ store: stores.store, clock: clockBadAt(2, bad), logger });
      try {
        const results = [];
        for (let i = 0; i < 5; i += 1) results.push(await awareness.record(humanTurn(CHILD, { summary: `turn ${i}` })));
        expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true]);
        const status = await awareness.status(CHILD, { changesSince: 0 });
        expect(status.stateChanges?.events.map((e) => e.summary)).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 3', 'turn 4']);
        expect(awareness.metrics().appendFailures).toBe(0);
        expect(logger.entries.some((entry) => String(entry.fields['error'] ?? '').includes('clock port'))).toBe(true);
      } finally {
        await awareness.close();
        await stores.cleanup();
      }
    },
  );

  let readings = 0;
  beforeAll(async () => {
    readings = await readingsOfAGoodRun(kind);
    // recover, the first prune, and per record its append time and the schedule check, at least.
    expect(readings).toBeGreaterThan(12);
  });

  test.each(CASES_BY_STORE[name] ?? [])(
    'a clock that %s once, at any reading: at most that operation fails (a ClockError), it is logged, nothing is written twice, and every later call succeeds',
    async (_label, bad) => {
      for (let badAt = 1; badAt <= readings; badAt += 1) {
        const stores = await kind.open();
        const run: Run = { failures: [], logger: recordingLogger() };
        try {
          await scenario(stores.store, clockBadAt(badAt, bad), run);
          const awareness = run.awareness as SessionStateAwareness;
          const where = `bad reading #${badAt}`;

          // At most the one operation that read the bad value failed, and it says why.
          expect({ where, failures: run.failures.length <= 1 }).toEqual({ where, failures: true });
          for (const { error } of run.failures) {
            expect({ where, clockError: error instanceof ClockError }).toEqual({ where, clockError: true });
            expect((error as Error).message).toMatch(/clock port/);
          }
          // Logged wherever it was read (a failed operation, or the prune schedule skipping it).
          const logged = run.logger.entries.some((entry) => String(entry.fields['error'] ?? '').includes('clock port'));
          expect({ where, logged }).toEqual({ where, logged: true });

          // Every record is in the log exactly once: a committed append was never reported failed.
          const status = await awareness.status(CHILD, { changesSince: 0 });
          const summaries = (status.stateChanges?.events ?? []).filter((e) => e.kind !== 'child_spawned').map((e) => e.summary);
          expect({ where, summaries }).toEqual({
            where,
            summaries: ['turn 0', 'turn 1', 'turn 2', 'after the spawn', 'late 0', 'late 1'],
          });
          expect((status.stateChanges?.events ?? []).filter((e) => e.kind === 'child_spawned')).toHaveLength(1);
          // The schedule still works after the bad reading.
          await expect(awareness.prune()).resolves.toEqual(expect.objectContaining({ eventsDeleted: 0 }));
        } finally {
          await run.awareness?.close();
          await stores.cleanup();
        }
      }
    },
  );
});
