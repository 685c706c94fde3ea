// Notices across gateway processes (issue 8): several facades share one store, each told which
// watcher sessions it owns. A notice is queued (and woken) only by the owner: the process that
// recorded the change drops it locally and the owner hears of it by a cursor signal (a store
// with `listen`) or by its resync timer, re-reading the notice the cursor holds at its frozen
// watermark (`scanPending` without `raise`, never the restart scan), so a drain reopens for every change the
// watcher has not read, exactly as in one process. Here the processes are facades in one Jest
// worker over ONE memory store, with an in-test bus standing in for PostgreSQL's LISTEN/NOTIFY,
// and two facades over one SQLite file with its `listen` left out: the resync timer alone, the
// safety net, carries the notice (sqliteSignals.test.ts has the file's own signals).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createManualClock, createMemoryStore } from '@session-state/adapters-memory';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import { storeError, type CursorSignalListener, type CursorSignalSource, type SessionKey, type StateStore } from '@session-state/domain';
import { heldNotices, noticeTextOf } from '@session-state/testkit';

/** A store with cross-process signals. */
type SignalledStore = StateStore & CursorSignalSource;

import { createSessionStateAwareness, InvalidInputError, StoreOperationError, type RecordResult, type SessionStateAwareness, type SessionStateAwarenessOptions } from '../src/index.js';
import { afterStartupWakes, humanTurn, recordingLogger, START, type RecordingLogger } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

// --- keys and ownership ------------------------------------------------------------------------

/** Watchers owned by gateway A. */
const WA = 'agent:alpha:main';
/** Watchers owned by gateway B. */
const WB = 'agent:beta:main';
const WB2 = 'agent:beta:ops';
/** Sessions a human talks to; their ownership plays no part (they only are targets). */
const TARGET = 'agent:worker:main';
const TARGET2 = 'agent:helper:main';

const ownsA = (key: string): boolean => key.startsWith('agent:alpha:');
const ownsB = (key: string): boolean => key.startsWith('agent:beta:');

const RESYNC_MS = 1_000;

// --- the bus: cursor signals between the facades, as PostgreSQL's NOTIFY would send them ----

interface Bus {
  /** One process's handle on the shared store: appends signal, `listen` subscribes. */
  view(): SignalledStore;
  /** While true, signals are lost (a dropped NOTIFY, a connection down). */
  dropSignals: boolean;
  /** Subscriptions not closed yet. */
  readonly listening: number;
  /** Signals sent so far (one per target of each append that made a cursor pending, or removal), lost ones excluded. */
  readonly sent: number;
  /** Every listener is told to resync (the listening connection came back). */
  reconnect(): void;
  /** Every listener is told the connection failed. */
  fail(message: string): void;
}

/**
 * After an append that made a cursor pending (a `first` notice), or a reset, delete or prune that
 * removed cursors, every subscribed listener (the calling process's own included) hears
 * `targetsChanged([target], watchers)` for each target, asynchronously, like a NOTIFY delivered
 * after the commit; a repeat on a pending cursor sends nothing, as PostgreSQL's store does.
 * `listen` calls `resync()` once before it resolves, as PostgreSQL's does.
 */
function createBus(shared: StateStore): Bus {
  const listeners = new Set<CursorSignalListener>();
  let sent = 0;
  /** Tells every listener of each pair's target and watchers, asynchronously, like a NOTIFY delivered after the commit. */
  const signal = (pairs: readonly { readonly watcher: string; readonly target: string }[]): void => {
    const watchersByTarget = new Map<SessionKey, SessionKey[]>();
    for (const { watcher, target } of pairs) watchersByTarget.set(target as SessionKey, [...(watchersByTarget.get(target as SessionKey) ?? []), watcher as SessionKey]);
    if (watchersByTarget.size === 0 || bus.dropSignals) return;
    sent += watchersByTarget.size;
    setImmediate(() => {
      for (const listener of [...listeners]) for (const [target, watchers] of watchersByTarget) listener.targetsChanged([target], watchers);
    });
  };
  const bus: Bus = {
    dropSignals: false,
    get listening() {
      return listeners.size;
    },
    get sent() {
      return sent;
    },
    view: () => ({
      ...shared,
      // Each process closes its own handle; the shared state outlives it.
      close: async () => undefined,
      append: async (batch) => {
        const outcomes = await shared.append(batch);
        signal(outcomes.flatMap((outcome) => (outcome.type === 'appended' ? outcome.notices.filter((notice) => notice.reason === 'first') : [])));
        return outcomes;
      },
      // Removed cursors signal their targets, as the PostgreSQL store's removing transactions do.
      resetWatcher: async (watcher, now) => {
        const removed = await shared.resetWatcher(watcher, now);
        signal(removed);
        return removed;
      },
      unwatch: async (watcher, target, now) => {
        const result = await shared.unwatch(watcher, target, now);
        if (result.removed) signal([{ watcher, target }]);
        return result;
      },
      // An acknowledging read signals its target, so the owner re-reads a reopened notice.
      acknowledgeRead: async (request) => {
        const outcome = await shared.acknowledgeRead(request);
        if (outcome.acknowledged) signal([{ watcher: request.watcher, target: request.target }]);
        return outcome;
      },
      deleteSession: async (sessionKey, now) => {
        const result = await shared.deleteSession(sessionKey, now);
        signal(result.removedCursors);
        return result;
      },
      prune: async (request) => {
        const batch = await shared.prune(request);
        signal(batch.expiredCursors);
        return batch;
      },
      listen: async (listener) => {
        listeners.add(listener);
        listener.resync();
        return {
          close: async () => {
            listeners.delete(listener);
          },
        };
      },
    }),
    reconnect: () => {
      for (const listener of [...listeners]) listener.resync();
    },
    fail: (message) => {
      for (const listener of [...listeners]) listener.failed(storeError('listen', new Error(message)));
    },
  };
  return bus;
}

// --- gateways ----------------------------------------------------------------------------------

interface Gateway {
  readonly awareness: SessionStateAwareness;
  readonly logger: RecordingLogger;
  readonly wakes: string[];
}

const clock = createManualClock(START);
const open: SessionStateAwareness[] = [];

async function gateway(store: StateStore, extra: Partial<SessionStateAwarenessOptions> = {}): Promise<Gateway> {
  const logger = recordingLogger();
  const wakes: string[] = [];
  const awareness = await createSessionStateAwareness({ store, clock, logger, wake: (watcher) => wakes.push(watcher), ...extra });
  await afterStartupWakes();
  open.push(awareness);
  return { awareness, logger, wakes };
}

/** Closes every gateway opened so far (before the store they share goes). */
async function closeGateways(): Promise<void> {
  for (const awareness of open.splice(0)) await awareness.close();
}

/** Lets `n` turns of the event loop pass (signals and scans are delivered in later turns). */
async function turns(n = 10): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Waits turn by turn until `condition` holds; fails (naming `what`) if it never does. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/** The sequence of the event a `record` wrote (fails the test if it wrote none). */
function sequenceOf(result: RecordResult): number {
  if (!result.ok || !('event' in result)) throw new Error(`expected a recorded event, got ${JSON.stringify(result)}`);
  return result.event.sequence;
}

/** Fires the resync timers once (fake timers) and lets the scans they start finish. */
async function resyncTick(): Promise<void> {
  jest.advanceTimersByTime(RESYNC_MS);
  await turns();
}

const ownershipWarnings = (logger: RecordingLogger) => logger.entries.filter((entry) => entry.fields['operation'] === 'ownsSession');

beforeEach(() => {
  // Only the interval timers are faked: the resync timer fires when a test says so.
  jest.useFakeTimers({
    doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate'],
  });
});

afterEach(async () => {
  await closeGateways();
  jest.useRealTimers();
});

// --- signals -----------------------------------------------------------------------------------

describe('two gateways over one store with cursor signals', () => {
  let shared: StateStore;
  let bus: Bus;
  let a: Gateway;
  let b: Gateway;
  /** TARGET's version when B's watcher registered: the `changesSince` of its first notice. */
  let watchedAt: number;

  beforeEach(async () => {
    shared = createMemoryStore();
    bus = createBus(shared);
    a = await gateway(bus.view(), { ownsSession: ownsA, resyncIntervalMs: RESYNC_MS });
    b = await gateway(bus.view(), { ownsSession: ownsB, resyncIntervalMs: RESYNC_MS });
    await a.awareness.record(humanTurn(TARGET));
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    watchedAt = (await b.awareness.status(TARGET)).stateVersion;
    await turns();
  });

  afterEach(async () => {
    await closeGateways();
    await closeGateways();
    await shared.close();
  });

  test('a human turn recorded in A on a session B’s watcher watches gives exactly one notice in B, woken once, and none in A', async () => {
    const recorded = await a.awareness.record(humanTurn(TARGET, { onlyIfWatched: true }));
    expect(recorded.ok && 'event' in recorded).toBe(true);

    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the notice reaches B');
    await turns();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(b.wakes).toEqual([WB]);
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
    expect(a.wakes).toEqual([]);
    expect(b.awareness.metrics()).toMatchObject({ noticesQueued: 1, noticesSignalled: 1, noticesRecovered: 0 });
    expect(a.awareness.metrics()).toMatchObject({ noticesQueued: 0, noticesSignalled: 0 });
  });

  test('a burst of turns in A is one notice and one wake in B; B’s drain reopens exactly one notice for the rest of the burst', async () => {
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => a.awareness.record(humanTurn(TARGET, { summary: `turn ${i}` }))));
    const sequences = burst.map(sequenceOf);
    const firstOfBurst = Math.min(...sequences);
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the notice reaches B');
    await turns(20);
    await resyncTick();
    await resyncTick();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(b.wakes).toEqual([WB]);
    // Re-reads found the queued notice again (signals, two resync ticks): no news, so not counted.
    expect(b.awareness.metrics()).toMatchObject({ noticesQueued: 1, noticesSignalled: 1, noticesCoalesced: 0 });
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
    // The notice covers the burst's first turn, as A's append froze it; the drain reopens once for the rest.
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, firstOfBurst)]);
    expect(b.wakes).toEqual([WB, WB]);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, firstOfBurst)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);
    const { stateChanges } = await b.awareness.status(TARGET, { changesSince: firstOfBurst });
    expect(stateChanges?.events.map((event) => event.sequence)).toEqual([...sequences].sort((x, y) => x - y).slice(1));
    expect(b.awareness.metrics()).toMatchObject({ noticesQueued: 2, noticesReopened: 1, noticesSignalled: 1 });
  });

  test('a change recorded in A after B’s watcher read status is never acknowledged unread: B’s drain reopens for it', async () => {
    // The regression: a re-read that raised the frozen watermark (the restart scan) let this drain acknowledge it silently.
    const first = sequenceOf(await a.awareness.record(humanTurn(TARGET)));
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the first notice reaches B');
    await a.awareness.record(humanTurn(TARGET));
    await turns();
    // B's watcher reconciles before acting: it reads everything up to now.
    const read = await b.awareness.status(TARGET, { changesSince: watchedAt });
    const readUpTo = read.stateChanges?.nextSince ?? -1;
    expect(readUpTo).toBeGreaterThan(first);
    // Then another turn lands in A, a repeat on the pending cursor: it signals nothing (B was told
    // when the cursor became pending), and a resync tick re-reads before the watcher's turn ends.
    const signalsBefore = bus.sent;
    const unread = sequenceOf(await a.awareness.record(humanTurn(TARGET)));
    expect(bus.sent).toBe(signalsBefore);
    await turns(20);
    await resyncTick();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);

    // The drain acknowledges what the notice covered (the first turn) and reopens for the rest.
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, first)]);
    const { stateChanges } = await b.awareness.status(TARGET, { changesSince: first });
    expect(stateChanges?.events.map((event) => event.sequence)).toContain(unread);
    expect(unread).toBeGreaterThan(readUpTo);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, first)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);
  });

  test('B drains its notice; a change B has not heard of yet reopens exactly one notice with the new changesSince', async () => {
    const first = await a.awareness.record(humanTurn(TARGET));
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the first notice reaches B');
    const firstSequence = first.ok && 'event' in first ? first.event.sequence : -1;
    // Its signal is still on the way when B drains (here: lost), so B acknowledges the first change only.
    bus.dropSignals = true;
    const later = await a.awareness.record(humanTurn(TARGET));
    const laterSequence = later.ok && 'event' in later ? later.event.sequence : -1;
    await turns();
    bus.dropSignals = false;

    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    // The drain acknowledged up to the first change; the later one reopens one notice from there.
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, firstSequence)]);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, firstSequence)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);
    expect(b.wakes).toEqual([WB, WB]);
    await turns();

    // Idle again: the next turn in A gives one new notice in B, from the latest acknowledged.
    await a.awareness.record(humanTurn(TARGET));
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the next notice reaches B');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, laterSequence)]);
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
    expect(noticeTexts(await a.awareness.drain(WB))).toEqual([]);
  });

  test('each gateway queues only its own watchers’ notices; the other’s never show in its pending', async () => {
    await a.awareness.sent({ senderKey: WA, deliveredTo: TARGET, watch: true });
    await a.awareness.record(humanTurn(TARGET));
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the notice reaches B');
    await turns();
    await resyncTick();

    expect(noticeTexts(a.awareness.pending(WA))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(noticeTexts(b.awareness.pending(WA))).toEqual([]);
    expect([a.wakes, b.wakes]).toEqual([[WA], [WB]]);
  });

  test('two targets give B’s watcher two notices, and two of B’s watchers each get one', async () => {
    await b.awareness.sent({ senderKey: WB2, deliveredTo: TARGET, watch: true });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET2, watch: true });
    await Promise.all([a.awareness.record(humanTurn(TARGET)), a.awareness.record(humanTurn(TARGET2))]);
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 2 && noticeTexts(b.awareness.pending(WB2)).length === 1, 'every notice reaches B');
    await turns();
    // One scan found both; it offers them by target.
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET2, 0), noticeTextOf(TARGET, watchedAt)]);
    expect(noticeTexts(b.awareness.pending(WB2))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect([...b.wakes].sort()).toEqual([WB, WB, WB2].sort());
  });

  test('a lost signal is covered by the resync timer', async () => {
    bus.dropSignals = true;
    await a.awareness.record(humanTurn(TARGET));
    await turns(20);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);

    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the resync timer delivers the notice');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(b.wakes).toEqual([WB]);
    expect(b.awareness.metrics().noticesSignalled).toBe(1);
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
  });

  test('a lost signal is covered by the resync timer even when later turns on the pending cursor send none', async () => {
    bus.dropSignals = true;
    await a.awareness.record(humanTurn(TARGET));
    bus.dropSignals = false;
    const sentBefore = bus.sent;
    // Repeats on the cursor, now pending: no signal (B was told when it became pending).
    await a.awareness.record(humanTurn(TARGET));
    await a.awareness.record(humanTurn(TARGET));
    await turns(20);
    expect(bus.sent).toBe(sentBefore);
    expect(b.awareness.pending(WB)).toEqual([]);

    await resyncTick();
    await until(() => b.awareness.pending(WB).length > 0, 'the resync timer delivers the notice');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(b.wakes).toEqual([WB]);
  });

  /** B's watcher also watches TARGET2; a turn in A on each target queues two notices in B. */
  async function twoNoticesInB(): Promise<void> {
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET2, watch: true });
    await a.awareness.record(humanTurn(TARGET));
    await a.awareness.record(humanTurn(TARGET2));
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 2, 'both notices reach B');
  }

  test('a target deleted in A withdraws the notice B queued on it: gone from B’s pending, never handed over by its drain; B’s other notice stays', async () => {
    await twoNoticesInB();

    await a.awareness.sessionDeleted(TARGET);
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 1, 'B withdraws the notice on the deleted target');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET2, 0)]);
    expect(b.awareness.metrics()).toMatchObject({ noticesWithdrawn: 1, noticesQueued: 2 });
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET2, 0)]);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([]);
  });

  test('B’s watcher reset in A withdraws every notice B queued for it', async () => {
    await twoNoticesInB();

    await a.awareness.sessionReset(WB);
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 0, 'B withdraws both notices');
    expect(b.awareness.metrics().noticesWithdrawn).toBe(2);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([]);
  });

  test('B’s watcher unwatching a target in A withdraws the notice B queued for that pair only (issue 15)', async () => {
    await twoNoticesInB();

    expect(await a.awareness.unwatch(WB, TARGET)).toEqual({ unwatched: true });
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 1, 'B withdraws the unwatched pair’s notice');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET2, 0)]);
    expect(b.awareness.metrics().noticesWithdrawn).toBe(1);
  });

  test('a lost removal signal is covered by the resync timer', async () => {
    await a.awareness.record(humanTurn(TARGET));
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 1, 'the notice reaches B');
    bus.dropSignals = true;
    await a.awareness.sessionDeleted(TARGET);
    await turns(20);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);

    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 0, 'the resync timer withdraws the notice');
    expect(b.awareness.metrics().noticesWithdrawn).toBe(1);
  });

  test('a resync from the store (the listening connection came back) re-reads every owned cursor; a failure is a warning', async () => {
    bus.dropSignals = true;
    await a.awareness.record(humanTurn(TARGET));
    bus.fail('connection terminated unexpectedly');
    await turns(20);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);
    expect(b.logger.entries).toContainEqual({
      level: 'warn',
      message: expect.stringContaining('listener failed'),
      fields: expect.objectContaining({ operation: 'listen', error: 'connection terminated unexpectedly' }),
    });

    bus.reconnect();
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the resync delivers the notice');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, watchedAt)]);
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
  });

  test('close stops the resync timer and closes the subscription', async () => {
    expect(bus.listening).toBe(2);
    expect(jest.getTimerCount()).toBe(2);
    await b.awareness.close();
    expect(bus.listening).toBe(1);
    expect(jest.getTimerCount()).toBe(1);
    await a.awareness.close();
    expect(bus.listening).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  /**
   * The bus's store with the subscription's listener kept (`heard()`) to call by hand, and each
   * restart scan and re-read noted in `scans`.
   */
  function handHeld(view: StateStore, scans: string[]): { readonly store: SignalledStore; heard(): CursorSignalListener | undefined } {
    let heard: CursorSignalListener | undefined;
    const store: SignalledStore = {
      ...view,
      listen: async (listener) => {
        heard = listener;
        return { close: async () => undefined };
      },
      scanPending: (request) => {
        scans.push(request.raise !== undefined ? 'restartScan' : request.targets === undefined ? 'pendingNotices' : `pendingNotices ${[...request.targets].sort().join(' ')}`);
        return view.scanPending(request);
      },
    };
    return { store, heard: () => heard };
  }

  test('a signal that arrives after close (a store that calls late) starts no scan', async () => {
    const scans: string[] = [];
    const held = handHeld(bus.view(), scans);
    const late = await gateway(held.store, { ownsSession: ownsB });
    await late.awareness.close();
    const heard = held.heard();
    heard?.targetsChanged([TARGET as SessionKey]);
    heard?.resync();
    await turns();
    expect(heard).toBeDefined();
    expect(scans).toEqual(['restartScan']);
  });

  test('after start-up, the signals of one delivery start one re-read before the event loop turns, not behind that turn', async () => {
    const scans: string[] = [];
    const held = handHeld(bus.view(), scans);
    const b = await gateway(held.store, { ownsSession: ownsB, resyncIntervalMs: 0 });
    await turns();
    scans.length = 0;
    // Two notifications in one socket read: delivered one after the other in one callback.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const heard = held.heard();
    expect(heard).toBeDefined();
    heard?.targetsChanged([TARGET as SessionKey], [WB as SessionKey]);
    heard?.targetsChanged([TARGET2 as SessionKey], [WB as SessionKey]);
    await Promise.resolve();
    expect(turned).toBe(false);
    expect(scans).toEqual([`pendingNotices ${[TARGET, TARGET2].sort().join(' ')}`]);
    await turns();
    expect(scans).toHaveLength(1);
    await b.awareness.close();
  });
});

// --- ordering with the store -------------------------------------------------------------------

describe('what a gateway with ownsSession asks of the store', () => {
  /** The store with each `listen` and `scanPending` call (restart scan or re-read) noted, in order; `failing` fails the next re-reads. */
  function spied(inner: SignalledStore, calls: string[], failing = { times: 0 }): SignalledStore {
    return {
      ...inner,
      listen: async (listener) => {
        calls.push('listen');
        return inner.listen(listener);
      },
      scanPending: async (request) => {
        const { raise, targets } = request;
        calls.push(raise !== undefined ? 'restartScan all' : targets === undefined ? 'pendingNotices all' : `pendingNotices ${[...targets].sort().join(' ')}`);
        if (raise === undefined && failing.times > 0) {
          failing.times -= 1;
          throw new Error('disk I/O error');
        }
        return inner.scanPending(request);
      },
    };
  }

  test('it listens BEFORE the restart scan, and that scan covers the resync listening asked for', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const calls: string[] = [];
    await gateway(spied(bus.view(), calls), { ownsSession: ownsB, resyncIntervalMs: 0 });
    await turns();
    expect(calls).toEqual(['listen', 'restartScan all']);
    await closeGateways();
    await shared.close();
  });

  test('the restart scan re-queues notices only for owned watchers and leaves the others’ cursors alone', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    // While no gateway runs for them, a turn lands on a session both watchers watch.
    const first = await gateway(bus.view(), { ownsSession: () => false, resyncIntervalMs: 0 });
    await first.awareness.sent({ senderKey: WA, deliveredTo: TARGET, watch: true });
    await first.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await first.awareness.record(humanTurn(TARGET));
    await first.awareness.record(humanTurn(TARGET));
    await turns();
    expect(noticeTexts(first.awareness.pending(WA))).toEqual([]);
    const unowned = (await shared.listCursors({ watcher: WA as SessionKey })).map((row) => ({ ...row }));

    const b = await gateway(bus.view(), { ownsSession: ownsB, resyncIntervalMs: 0 });
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(noticeTexts(b.awareness.pending(WA))).toEqual([]);
    expect(b.wakes).toEqual([WB]);
    expect(b.awareness.metrics()).toMatchObject({ noticesRecovered: 1, noticesSignalled: 0 });
    expect(await shared.listCursors({ watcher: WA as SessionKey })).toEqual(unowned);
    await turns();
    // The resync that listening asked for finds the same notice: still one.
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    await closeGateways();
    await shared.close();
  });

  test('one read-only re-read per turn for a burst of signals, limited to the signalled targets; never the restart scan', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const calls: string[] = [];
    const a = await gateway(bus.view(), { ownsSession: ownsA, resyncIntervalMs: 0 });
    const b = await gateway(spied(bus.view(), calls), { ownsSession: ownsB, resyncIntervalMs: 0 });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET2, watch: true });
    await turns();
    calls.length = 0;
    // One batch in A (one tick): two appends, two targets, signalled in one turn.
    await Promise.all([a.awareness.record(humanTurn(TARGET)), a.awareness.record(humanTurn(TARGET2)), a.awareness.record(humanTurn(TARGET))]);
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 2, 'both notices reach B');
    await turns();
    expect(calls).toEqual([`pendingNotices ${[TARGET, TARGET2].sort().join(' ')}`]);
    await closeGateways();
    await shared.close();
  });

  test('a signal naming only another gateway’s watchers starts no re-read: one re-read per notice, in the owner only; a repeat turn signals nothing', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const callsA: string[] = [];
    const callsB: string[] = [];
    const a = await gateway(spied(bus.view(), callsA), { ownsSession: ownsA, resyncIntervalMs: 0 });
    const b = await gateway(spied(bus.view(), callsB), { ownsSession: ownsB, resyncIntervalMs: 0 });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await turns();
    callsA.length = 0;
    callsB.length = 0;

    await a.awareness.record(humanTurn(TARGET));
    await until(() => b.awareness.pending(WB).length === 1, 'the notice reaches B');
    await a.awareness.record(humanTurn(TARGET));
    await a.awareness.record(humanTurn(TARGET));
    await turns(20);
    expect(bus.sent).toBe(1);
    expect(callsB).toEqual([`pendingNotices ${TARGET}`]);
    expect(callsA).toEqual([]);
    await closeGateways();
    await shared.close();
  });

  test('a failed scan is logged and its targets are kept for the next signal, with no retry loop', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const calls: string[] = [];
    const failing = { times: 0 };
    const a = await gateway(bus.view(), { ownsSession: ownsA, resyncIntervalMs: 0 });
    const b = await gateway(spied(bus.view(), calls, failing), { ownsSession: ownsB, resyncIntervalMs: 0 });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET2, watch: true });
    await turns();
    calls.length = 0;

    failing.times = 1;
    await a.awareness.record(humanTurn(TARGET));
    await until(() => calls.length === 1, 'B scans after the signal');
    await turns(50);
    expect(calls).toEqual([`pendingNotices ${TARGET}`]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);
    expect(b.logger.entries).toContainEqual({
      level: 'error',
      message: expect.stringContaining('scan failed'),
      fields: { operation: 'scanPending', scan: 'targets', targets: 1, error: 'disk I/O error' },
    });

    // The next signal (another target) scans the kept target too.
    await a.awareness.record(humanTurn(TARGET2));
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 2, 'both notices reach B');
    expect(calls).toEqual([`pendingNotices ${TARGET}`, `pendingNotices ${[TARGET, TARGET2].sort().join(' ')}`]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET2, 0), noticeTextOf(TARGET, 0)]);
    await closeGateways();
    await shared.close();
  });

  /**
   * Gateways A and B over a fresh shared store, B's handle with `overrides` (given B's plain
   * handle), B's watcher watching TARGET, and one turn in A queued as B's notice.
   */
  async function noticeInBOverStore(overrides: (view: StateStore) => Partial<StateStore>) {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const view = bus.view();
    const a = await gateway(bus.view(), { ownsSession: ownsA, resyncIntervalMs: 0 });
    const b = await gateway({ ...view, ...overrides(view) }, { ownsSession: ownsB, resyncIntervalMs: RESYNC_MS });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await a.awareness.record(humanTurn(TARGET));
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 1, 'the notice reaches B');
    return { shared, bus, a, b };
  }

  test('a queued notice whose cursor is still there stays when a re-read finds it not pending (a drain that committed, then failed): the next drain hands it over', async () => {
    let failNextDrain = true;
    const { shared, b } = await noticeInBOverStore((view) => ({
      drain: async (request) => {
        const outcomes = await view.drain(request);
        if (failNextDrain) {
          failNextDrain = false;
          throw new Error('connection lost after commit');
        }
        return outcomes;
      },
    }));

    await expect(b.awareness.drain(WB)).rejects.toBeInstanceOf(StoreOperationError);
    // The cursor is acknowledged in the store, so the re-read finds nothing pending on it.
    expect(await heldNotices(shared)).toEqual([]);
    await resyncTick();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(b.awareness.metrics().noticesWithdrawn).toBe(0);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    await closeGateways();
    await shared.close();
  });

  test('a failed re-read keeps the notice and is logged; the next re-read withdraws it', async () => {
    const failing = { times: 0 };
    const { shared, a, b } = await noticeInBOverStore((view) => ({
      scanPending: async (request) => {
        if (failing.times > 0 && request.raise === undefined) {
          failing.times -= 1;
          throw new Error('disk I/O error');
        }
        return view.scanPending(request);
      },
    }));

    failing.times = 1;
    await a.awareness.sessionDeleted(TARGET);
    await until(() => failing.times === 0, 'B re-reads the signalled target');
    await turns();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(b.logger.entries).toContainEqual({
      level: 'error',
      message: expect.stringContaining('cursor scan failed'),
      fields: { operation: 'scanPending', scan: 'targets', targets: 1, error: 'disk I/O error' },
    });

    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 0, 'the resync withdraws the notice');
    expect(b.awareness.metrics().noticesWithdrawn).toBe(1);
    await closeGateways();
    await shared.close();
  });

  test('a store whose listen fails at start fails the creation, naming listen; a failed restart scan closes the subscription it opened', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const refusing: SignalledStore = { ...bus.view(), listen: () => Promise.reject(new Error('connection refused')) };
    const listenError = await createSessionStateAwareness({ store: refusing, logger: recordingLogger(), ownsSession: ownsB }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(listenError).toBeInstanceOf(StoreOperationError);
    expect((listenError as StoreOperationError).operation).toBe('listen');

    const failingScan: StateStore = { ...bus.view(), scanPending: () => Promise.reject(new Error('disk I/O error')) };
    const scanError = await createSessionStateAwareness({ store: failingScan, logger: recordingLogger(), ownsSession: ownsB }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((scanError as StoreOperationError).operation).toBe('restartScan');
    expect(bus.listening).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    await shared.close();
  });

  test('without ownsSession a gateway (it runs the restart scan) listens over every watcher with the one-minute resync timer; a one-shot without the restart scan does neither', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const calls: string[] = [];
    // The CLI's commands: no restart scan, no ownsSession.
    const oneShot = await gateway(spied(bus.view(), calls), { startup: { restartScan: false, prune: 'off' } });
    expect(calls).toEqual([]);
    expect(bus.listening).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    await oneShot.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await oneShot.awareness.record(humanTurn(TARGET));
    expect(noticeTexts(oneShot.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);

    const only = await gateway(spied(bus.view(), calls));
    await turns();
    expect(calls).toEqual(['listen', 'restartScan all']);
    expect(bus.listening).toBe(1);
    expect(jest.getTimerCount()).toBe(1);
    expect(noticeTexts(only.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    // Another process's turn on another watched target reaches it by the signal, for any watcher.
    await oneShot.awareness.sent({ senderKey: WA, deliveredTo: TARGET2, watch: true });
    await oneShot.awareness.record(humanTurn(TARGET2));
    await until(() => only.awareness.pending(WA).length > 0, 'the signal delivers the notice');
    expect(noticeTexts(only.awareness.pending(WA))).toEqual([noticeTextOf(TARGET2, 0)]);
    expect(calls.slice(2)).toEqual([`pendingNotices ${TARGET2}`]);
    // Its own turns are queued where they were recorded, as before.
    await only.awareness.drain(WB);
    await only.awareness.record(humanTurn(TARGET));
    expect(only.awareness.pending(WB)).toHaveLength(1);
    await closeGateways();
    expect(bus.listening).toBe(0);
    await shared.close();
  });
});

// --- a throwing ownsSession ------------------------------------------------------------------------

describe('an ownsSession that throws', () => {
  test('counts as not owned, breaks nothing, and is logged once per call site (appends, scans)', async () => {
    const shared = createMemoryStore();
    const bus = createBus(shared);
    const broken = 'agent:alpha:broken';
    const owns = (key: string): boolean => {
      if (key === broken) throw new Error('ownership table unavailable');
      return ownsA(key);
    };
    const a = await gateway(bus.view(), { ownsSession: owns, resyncIntervalMs: RESYNC_MS });
    await a.awareness.sent({ senderKey: broken, deliveredTo: TARGET, watch: true });
    await a.awareness.sent({ senderKey: WA, deliveredTo: TARGET, watch: true });

    for (let i = 0; i < 3; i += 1) expect((await a.awareness.record(humanTurn(TARGET))).ok).toBe(true);
    await turns();
    await resyncTick();
    await resyncTick();

    expect(noticeTexts(a.awareness.pending(WA))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(noticeTexts(a.awareness.pending(broken))).toEqual([]);
    expect(a.wakes).toEqual([WA]);
    expect(ownershipWarnings(a.logger).map((entry) => [entry.level, entry.fields['site'], entry.fields['watcher'], entry.fields['error']])).toEqual([
      ['warn', 'append', broken, 'ownership table unavailable'],
      ['warn', 'scan', broken, 'ownership table unavailable'],
    ]);
    expect(a.logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
    // The facade keeps working for everything else.
    expect(noticeTexts(await a.awareness.drain(WA))).toEqual([noticeTextOf(TARGET, 0)]);
    await closeGateways();
    await shared.close();
  });
});

// --- options -----------------------------------------------------------------------------------

describe('ownsSession and resyncIntervalMs options', () => {
  test.each([
    ['options.ownsSession', { ownsSession: 'agent:alpha:' }, 'a string of 12 characters'],
    ['options.ownsSession', { ownsSession: null }, 'null'],
    ['options.resyncIntervalMs', { ownsSession: ownsA, resyncIntervalMs: -1 }, '-1'],
    ['options.resyncIntervalMs', { ownsSession: ownsA, resyncIntervalMs: 1.5 }, '1.5'],
    ['options.resyncIntervalMs', { ownsSession: ownsA, resyncIntervalMs: '60000' }, 'a string of 5 characters'],
    ['options.resyncIntervalMs', { ownsSession: ownsA, resyncIntervalMs: Number.NaN }, 'NaN'],
    // Node.js would fire a longer interval after 1 ms instead.
    ['options.resyncIntervalMs', { ownsSession: ownsA, resyncIntervalMs: 2 ** 31 }, String(2 ** 31)],
    ['options.store.listen', { store: { ...createMemoryStore(), listen: 'LISTEN' } }, 'a string of 6 characters'],
  ] as ReadonlyArray<readonly [string, object, string]>)('rejects a bad %s (%j) with an InvalidInputError naming the field and describing the value', async (field, bad, shown) => {
    const error = await createSessionStateAwareness({ store: createMemoryStore(), logger: recordingLogger(), ...bad } as never).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
    expect((error as InvalidInputError).message).toContain(field);
    expect((error as InvalidInputError).message).toContain(shown);
  });

  test('a store without scanPending (the restart scan, and the read-only re-read signals and the resync timer use) is rejected naming options.store', async () => {
    const { scanPending: _missing, ...older } = createMemoryStore();
    const error = await createSessionStateAwareness({ store: older as unknown as StateStore, logger: recordingLogger() }).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('options.store');
  });

  test('the resync timer defaults to one minute with ownsSession, and 0 turns it off', async () => {
    const store = createMemoryStore();
    const calls: string[] = [];
    const counted: StateStore = {
      ...store,
      scanPending: (request) => {
        calls.push(request.raise !== undefined ? 'restartScan' : request.targets === undefined ? 'pendingNotices all' : 'pendingNotices targets');
        return store.scanPending(request);
      },
    };
    const off = await gateway({ ...counted, close: async () => undefined }, { ownsSession: ownsA, resyncIntervalMs: 0 });
    expect(jest.getTimerCount()).toBe(0);
    await off.awareness.close();

    await gateway(counted, { ownsSession: ownsA });
    expect(jest.getTimerCount()).toBe(1);
    expect(calls).toEqual(['restartScan', 'restartScan']);
    calls.length = 0;
    jest.advanceTimersByTime(59_999);
    await turns();
    expect(calls).toEqual([]);
    jest.advanceTimersByTime(1);
    await turns();
    expect(calls).toEqual(['pendingNotices all']);
  });

  test('without ownsSession a resyncIntervalMs still runs the timer, over every watcher', async () => {
    const shared = createMemoryStore();
    const writer = await gateway({ ...shared, close: async () => undefined }, { ownsSession: () => false, resyncIntervalMs: 0 });
    const reader = await gateway({ ...shared, close: async () => undefined }, { resyncIntervalMs: RESYNC_MS });
    await writer.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await writer.awareness.record(humanTurn(TARGET));
    expect(noticeTexts(reader.awareness.pending(WB))).toEqual([]);
    await resyncTick();
    expect(noticeTexts(reader.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    await closeGateways();
    await shared.close();
  });
});

// --- a shared SQLite file without its signals: the resync timer carries the notice -------------

/** The SQLite store on `path` with its `listen` left out, as if every signal were lost. */
function withoutSignals(path: string): StateStore {
  const { listen: _signals, ...store } = openSqliteStore({ path });
  return store;
}

describe('two gateways over one SQLite file, their signals lost', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'session-state-cross-'));
  });
  afterEach(async () => {
    await closeGateways();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a turn recorded in A reaches B’s watcher by B’s resync timer: one notice in B, none in A; the drain reopens once for later turns', async () => {
    const path = join(dir, 'state.db');
    const a = await gateway(withoutSignals(path), { ownsSession: ownsA, resyncIntervalMs: RESYNC_MS });
    const b = await gateway(withoutSignals(path), { ownsSession: ownsB, resyncIntervalMs: RESYNC_MS });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    const turnsInA: number[] = [];
    for (let i = 0; i < 5; i += 1) turnsInA.push(sequenceOf(await a.awareness.record(humanTurn(TARGET, { onlyIfWatched: true }))));
    await turns();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);

    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the resync timer delivers the notice');
    await resyncTick();
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(b.wakes).toEqual([WB]);
    expect(b.awareness.metrics()).toMatchObject({ noticesQueued: 1, noticesSignalled: 1, noticesCoalesced: 0 });
    expect(noticeTexts(a.awareness.pending(WB))).toEqual([]);
    expect(a.wakes).toEqual([]);

    // B drains: the notice covered A's first turn (as A's append froze it); one reopened notice covers the other four.
    const [firstTurn, , , , lastTurn] = turnsInA as [number, number, number, number, number];
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, firstTurn)]);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, firstTurn)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([]);
    expect(b.wakes).toEqual([WB, WB]);

    // A later turn in A comes through the same way, from the new changesSince.
    await a.awareness.record(humanTurn(TARGET));
    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the next notice reaches B');
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, lastTurn)]);
  });

  test('a target deleted in A is withdrawn from B’s queue at B’s next resync', async () => {
    const path = join(dir, 'state.db');
    const a = await gateway(withoutSignals(path), { ownsSession: ownsA, resyncIntervalMs: RESYNC_MS });
    const b = await gateway(withoutSignals(path), { ownsSession: ownsB, resyncIntervalMs: RESYNC_MS });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    await a.awareness.record(humanTurn(TARGET));
    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the resync timer delivers the notice');

    await a.awareness.sessionDeleted(TARGET);
    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length === 0, 'the resync timer withdraws the notice');
    expect(b.awareness.metrics().noticesWithdrawn).toBe(1);
    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([]);
  });

  test('a turn recorded in A after B’s watcher read status, carried by the resync timer, is never acknowledged unread', async () => {
    const path = join(dir, 'state.db');
    const a = await gateway(withoutSignals(path), { ownsSession: ownsA, resyncIntervalMs: RESYNC_MS });
    const b = await gateway(withoutSignals(path), { ownsSession: ownsB, resyncIntervalMs: RESYNC_MS });
    await b.awareness.sent({ senderKey: WB, deliveredTo: TARGET, watch: true });
    const first = sequenceOf(await a.awareness.record(humanTurn(TARGET)));
    await resyncTick();
    await until(() => noticeTexts(b.awareness.pending(WB)).length > 0, 'the resync timer delivers the notice');

    const read = await b.awareness.status(TARGET, { changesSince: 0 });
    expect(read.stateChanges?.nextSince).toBe(first);
    const unread = sequenceOf(await a.awareness.record(humanTurn(TARGET)));
    await resyncTick();

    expect(noticeTexts(await b.awareness.drain(WB))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(noticeTexts(b.awareness.pending(WB))).toEqual([noticeTextOf(TARGET, first)]);
    const { stateChanges } = await b.awareness.status(TARGET, { changesSince: first });
    expect(stateChanges?.events.map((event) => event.sequence)).toEqual([unread]);
  });
});
