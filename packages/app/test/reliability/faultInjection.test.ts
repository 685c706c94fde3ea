// Battery 1 (issue 7): fault injection at every storage call. For every mutating facade method
// (record, childSpawned, sent, drain, sessionReset, sessionDeleted, prune, the restart scan) and
// N = 1, 2, ... until the method runs without reaching an Nth call, the Nth storage call fails
// once (transient) or from then on (persistent). After each failure the result is reported
// (record/childSpawned: { ok: false } and logged; others: a StoreOperationError naming the
// operation), the whole state still matches the reference model, and once the store is healthy
// the same call works. Injected failures alternate between a rejected promise and a synchronous throw.
import { storeMatrix, type FaultMode, type SeenCall, type StoreKind } from '@session-state/testkit';

import { StoreOperationError } from '../../src/index.js';
import { expectNo, expectNoViolations } from './support/failureClasses.js';
import { Rig } from './support/rig.js';
import { scaled, scaledTimeout } from './support/scale.js';
import { noticeTexts } from '../support/noticeTexts.js';

// --- the scenario ------------------------------------------------------------------------------

const P = 'agent:main:main';
const C = 'agent:main:subagent:c1';
const C2 = 'agent:main:subagent:c2';
const O = 'agent:ops:main';
const X = 'agent:ops:subagent:x';
const BULK = 'agent:bulk:main';
const KEYS = [P, C, C2, O, X, BULK, 'global'];
const HOUR = 60 * 60 * 1000;

/** Aged filler events: more than one prune batch (1000), so prune failures can hit a later batch; no more, as every attempt of the sweep builds them again. */
const FILLER = scaled(1100);

/**
 * Fillers at T0; cursors, notices, a drain and a reopen-to-be at T0+2h; the clock then at
 * T0+11h, so the fillers (not the cursors) are past the 10 h age limit and the next append
 * starts the hourly background prune. Queues: P holds C2 (material ahead), O holds C and X.
 */
async function scenario(kind: StoreKind): Promise<Rig> {
  const rig = await Rig.open(kind, { retention: { maxAgeMs: 10 * HOUR, maxRows: 100_000 }, keys: KEYS });
  await Promise.all(
    Array.from({ length: FILLER }, (_, i) => rig.record({ sessionKey: BULK, kind: 'compacted', actorType: 'system', summary: `filler ${i}` })),
  );
  rig.clock.advance(2 * HOUR);
  await rig.childSpawned(P, C, 'spawn-c1');
  await rig.childSpawned(P, C2);
  await rig.childSpawned(O, X);
  await rig.sent({ senderKey: O, deliveredTo: C, watch: true });
  await rig.record({ sessionKey: C, kind: 'human_direct_message', actorType: 'human', summary: 'human turn' });
  await rig.record({ sessionKey: C2, kind: 'goal_changed', actorType: 'agent', actorSessionKey: C, summary: 'goal set' });
  await rig.drain(P);
  await rig.record({ sessionKey: C2, kind: 'human_direct_message', actorType: 'human', summary: 'first' });
  await rig.record({ sessionKey: C2, kind: 'human_direct_message', actorType: 'human', summary: 'second' });
  await rig.record({ sessionKey: C, kind: 'goal_changed', actorType: 'agent', actorSessionKey: P, summary: 'own change' });
  await rig.record({ sessionKey: X, kind: 'upstream_missing', actorType: 'system', summary: 'upstream gone' });
  rig.clock.advance(9 * HOUR);
  expectNoViolations(await rig.check(), 'after the scenario');
  return rig;
}

// --- one attempt of an operation ----------------------------------------------------------------

const OPERATIONS = ['record', 'childSpawned', 'sent', 'drain', 'sessionReset', 'sessionDeleted', 'prune', 'restart'] as const;
type Operation = (typeof OPERATIONS)[number];

/** The sizes of the prune batches that succeeded before the first failed one among `calls`. */
const prunedBatches = (calls: readonly SeenCall[]): number[] => {
  const sizes: number[] = [];
  for (const call of calls) {
    if (call.method !== 'prune') continue;
    if (call.failed) break;
    sizes.push(call.batchSize ?? Number.NaN);
  }
  return sizes;
};

/** A rejection must be a StoreOperationError naming the facade operation, and be logged as an error. */
function expectReported(rig: Rig, error: unknown, operation: string, logged = operation): void {
  expect(error).toBeInstanceOf(StoreOperationError);
  expect((error as StoreOperationError).operation).toBe(operation);
  expect((error as Error).message).toContain(operation);
  expectLogged(rig, logged);
}

function expectLogged(rig: Rig, operation: string): void {
  const entries = rig.logger.entries.filter((e) => e.level === 'error' && e.fields['operation'] === operation);
  expect(entries.length).toBeGreaterThan(0);
}

async function settled<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown; rejected: boolean }> {
  try {
    return { value: await promise, rejected: false };
  } catch (error) {
    return { error, rejected: true };
  }
}

/**
 * Runs `operation` once through the (possibly failing) store, checks how it was reported and
 * applies to the model exactly what the storage calls that succeeded did.
 */
async function attempt(rig: Rig, operation: Operation): Promise<void> {
  const from = rig.faults.calls.length;
  const now = rig.clock.now();
  const callsOfAttempt = async (): Promise<SeenCall[]> => {
    await rig.faults.settle();
    return rig.faults.calls.slice(from);
  };

  switch (operation) {
    case 'record':
    case 'childSpawned': {
      const isRecord = operation === 'record';
      const input = isRecord
        ? { sessionKey: C, kind: 'human_direct_message' as const, actorType: 'human' as const, summary: 'human turn under fault' }
        : undefined;
      const modelInput = isRecord
        ? { sessionKey: C, kind: 'human_direct_message' }
        : { sessionKey: C, kind: 'child_spawned', actorSessionKey: O };
      const expected = rig.model.expectAppend(modelInput);
      const startsPrune = rig.model.appendStartsPrune(now);
      const outcome = await settled(
        isRecord && input !== undefined ? rig.facade.record(input) : rig.facade.childSpawned({ parentKey: O, childKey: C }),
      );
      const calls = await callsOfAttempt();
      expectNo('model-divergence', !outcome.rejected, () => `${operation} rejected: ${String(outcome.error)}`);
      const result = outcome.value as { ok: boolean; event?: { sequence: number }; error?: Error };
      if (calls[0]?.failed === true) {
        expect(result.ok).toBe(false);
        expectReported(rig, result.error, operation);
        return;
      }
      expect(result.ok).toBe(true);
      expect(expected.type).toBe('append');
      const problem = rig.model.applyAppend(modelInput, result.event?.sequence ?? Number.NaN, now, isRecord ? undefined : O);
      expectNo('head-regression', problem === undefined, () => String(problem));
      if (startsPrune) {
        rig.model.prune(now, prunedBatches(calls));
        if (calls.some((c) => c.failed)) expectLogged(rig, 'prune');
      }
      return;
    }
    case 'sent': {
      const outcome = await settled(rig.facade.sent({ senderKey: O, deliveredTo: P, watch: true }));
      const calls = await callsOfAttempt();
      if (calls[0]?.failed === true) return expectReported(rig, outcome.error, 'sent');
      expect(outcome.value).toEqual({ watched: true });
      rig.model.watch(O, P, now);
      return;
    }
    case 'drain': {
      const before = noticeTexts(rig.facade.pending(P));
      const outcome = await settled(rig.facade.drain(P));
      const calls = await callsOfAttempt();
      if (calls[0]?.failed === true) {
        expectReported(rig, outcome.error, 'drain');
        expectNo('lost-notice', JSON.stringify(noticeTexts(rig.facade.pending(P))) === JSON.stringify(before), () => `a failed drain consumed notices: ${JSON.stringify(before)} -> ${JSON.stringify(noticeTexts(rig.facade.pending(P)))}`);
        return;
      }
      rig.compareTexts('drain(P)', P, rig.model.drain(P, now), noticeTexts(outcome.value ?? []));
      return;
    }
    case 'sessionReset':
    case 'sessionDeleted': {
      const key = operation === 'sessionReset' ? O : C;
      const outcome = await settled(operation === 'sessionReset' ? rig.facade.sessionReset(key) : rig.facade.sessionDeleted(key));
      const calls = await callsOfAttempt();
      if (calls[0]?.failed === true) return expectReported(rig, outcome.error, operation);
      expectNo('model-divergence', !outcome.rejected, () => `${operation} rejected on a healthy store: ${String(outcome.error)}`);
      if (operation === 'sessionReset') rig.model.sessionReset(key);
      else rig.model.sessionDeleted(key);
      return;
    }
    case 'prune': {
      const outcome = await settled(rig.facade.prune());
      const calls = await callsOfAttempt();
      const batches = prunedBatches(calls);
      if (calls.some((c) => c.failed)) {
        expectReported(rig, outcome.error, 'prune');
        rig.model.prune(now, batches);
        return;
      }
      const expected = rig.model.prune(now);
      expect(outcome.value).toEqual(expected);
      return;
    }
    case 'restart': {
      if (rig.awareness !== undefined) await rig.stop();
      const started = await settled(rig.start());
      const calls = await callsOfAttempt();
      if (calls[0]?.failed === true) {
        rig.awareness = undefined;
        return expectReported(rig, started.error, 'restartScan');
      }
      expectNo('model-divergence', !started.rejected, () => `the restart rejected: ${String(started.error)}`);
      rig.model.restartScan(now);
      rig.model.prune(now, prunedBatches(calls));
      if (calls.some((c) => c.failed)) expectLogged(rig, 'prune');
      return;
    }
    default: {
      const unreachable: never = operation;
      throw new Error(`unknown operation ${String(unreachable)}`);
    }
  }
}

// --- the battery -------------------------------------------------------------------------------

/**
 * Fails the Nth call for N = 1, 2, ... until an attempt makes fewer than N calls; returns the
 * last N and the calls the unfailed attempt made.
 */
async function sweep(kind: StoreKind, operation: Operation, mode: FaultMode): Promise<{ tried: number; calls: readonly SeenCall[] }> {
  for (let n = 1; n <= 50; n += 1) {
    const rig = await scenario(kind);
    try {
      rig.faults.arm(n, mode, n % 2 === 0 ? 'throw' : 'reject');
      await attempt(rig, operation);
      const failed = rig.faults.failed.length > 0;
      const callsOfAttempt = [...rig.faults.calls];
      expectNoViolations(await rig.check(), `${operation}, call ${n} failed ${mode}ly`);
      if (failed && mode === 'persistent') {
        // Still broken: the same call fails again and changes nothing more.
        await attempt(rig, operation);
        expectNoViolations(await rig.check(), `${operation} again while the store still fails`);
      }
      rig.faults.heal();
      const failuresBefore = rig.faults.failed.length;
      if (rig.awareness === undefined) await attempt(rig, 'restart');
      await attempt(rig, operation);
      expect(rig.faults.failed.length).toBe(failuresBefore);
      expectNoViolations(await rig.check(), `${operation} on the healed store after call ${n} failed`);
      if (!failed) return { tried: n, calls: callsOfAttempt };
    } finally {
      await rig.dispose();
    }
  }
  throw new Error(`${operation} still reached call 50`);
}

describe.each(storeMatrix)('fault injection on the %s store', (_name, kind) => {
  describe.each(['transient', 'persistent'] as const)('%s failures', (mode) => {
    test.each(OPERATIONS)('%s: failing each storage call in turn is reported, leaves the model intact, and the next healthy call works', async (operation) => {
      const { tried, calls } = await sweep(kind, operation, mode);
      // The sweep failed every call the operation makes and ended just past the last: its own
      // store call, plus the prune batches that record/childSpawned (hourly), prune and the
      // restart scan run (at least two, as the aged fillers exceed the first batch).
      expect(tried).toBe(calls.length + 1);
      const own = { record: 'append', childSpawned: 'append', sent: 'watch', drain: 'drain', sessionReset: 'resetWatcher', sessionDeleted: 'deleteSession', prune: 'prune', restart: 'scanPending' }[operation];
      expect(calls[0]?.method).toBe(own);
      const pruning = ['record', 'childSpawned', 'prune', 'restart'].includes(operation);
      expect(calls.filter((c) => c.method === 'prune').length >= (pruning ? 2 : 0)).toBe(true);
    }, scaledTimeout(30_000));
  });
});
