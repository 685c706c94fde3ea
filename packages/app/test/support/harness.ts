// Builds a facade for a scenario: a store from the matrix, a manual clock, a recording logger
// and a wake spy, plus the session keys the scenarios use.
import { createManualClock, type ManualClock } from '@session-state/adapters-memory';
import type { AwarenessObserver, LogFields, Logger, StateStore } from '@session-state/domain';
import { faultStoreOption, type FaultStore, type StoreHarness, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, type RecordInput, type SessionStateAwareness } from '../../src/index.js';

// --- keys ------------------------------------------------------------------------------------

export const PARENT = 'agent:main:main';
export const CHILD = 'agent:main:subagent:child-7';
export const OTHER_CHILD = 'agent:main:subagent:child-8';
export const PEER = 'agent:ops:main';
export const START = Date.UTC(2026, 10, 29, 10, 0, 0);

// --- ports -----------------------------------------------------------------------------------

export interface LogEntry {
  readonly level: 'warn' | 'error';
  readonly message: string;
  readonly fields: LogFields;
}

export interface RecordingLogger extends Logger {
  readonly entries: LogEntry[];
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  return {
    entries,
    warn: (fields, message) => {
      entries.push({ level: 'warn', message, fields });
    },
    error: (fields, message) => {
      entries.push({ level: 'error', message, fields });
    },
  };
}

/** Resolves after the turn in which a facade just created calls the wakes its start-up owes. */
export const afterStartupWakes = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// --- the fixture -----------------------------------------------------------------------------

export interface Fixture {
  readonly awareness: SessionStateAwareness;
  readonly clock: ManualClock;
  readonly logger: RecordingLogger;
  /** Every wake call, in order. */
  readonly wakes: string[];
  readonly stores: StoreHarness;
  /** Closes the facade and opens a new one over the same durable state; wakes and logs reset. */
  restart(): Promise<Fixture>;
  /** Closes the facade (if open) and removes the store's files. */
  dispose(): Promise<void>;
}

export interface FixtureOptions {
  readonly retention?: { readonly maxAgeMs?: number; readonly maxRows?: number; readonly cursorMaxAgeMs?: number };
  /** Wraps the store before the facade sees it (e.g. to inject failures). */
  readonly wrap?: (store: StateStore) => StateStore;
  /** Called after a wake is recorded (e.g. to make the port throw). */
  readonly wake?: (watcher: string) => void;
  /** The observer port (timings for metrics). */
  readonly observer?: AwarenessObserver;
  /** The facade's delivery options. */
  readonly leaseMs?: number;
  readonly noticeLink?: (targetKey: string) => string | undefined;
}

async function build(stores: StoreHarness, store: StateStore, clock: ManualClock, options: FixtureOptions): Promise<Fixture> {
  const logger = recordingLogger();
  const wakes: string[] = [];
  const awareness = await createSessionStateAwareness({
    store: options.wrap ? options.wrap(store) : store,
    clock,
    logger,
    wake: (watcher) => {
      wakes.push(watcher);
      options.wake?.(watcher);
    },
    ...(options.retention !== undefined ? { retention: options.retention } : {}),
    ...(options.observer !== undefined ? { observer: options.observer } : {}),
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(options.noticeLink !== undefined ? { noticeLink: options.noticeLink } : {}),
  });
  // The turn in which the wakes start-up owes are called.
  await afterStartupWakes();
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await awareness.close();
  };
  return {
    awareness,
    clock,
    logger,
    wakes,
    stores,
    async restart() {
      await close();
      return build(stores, await stores.reopen(), clock, options);
    },
    async dispose() {
      await close();
      await stores.cleanup();
    },
  };
}

export async function openFixture(kind: StoreKind, options: FixtureOptions = {}): Promise<Fixture> {
  const stores = await kind.open();
  return build(stores, stores.store, createManualClock(START), options);
}

/** A fixture whose store is wrapped by the test kit's fault store, and the handle that fails its calls on demand. */
export async function openFaultyFixture(kind: StoreKind): Promise<{ readonly fixture: Fixture; readonly faults: FaultStore }> {
  const faulty = faultStoreOption();
  const fixture = await openFixture(kind, { wrap: faulty.wrap });
  return { fixture, faults: faulty.faults() };
}

// --- inputs ----------------------------------------------------------------------------------

/** A human turn sent directly to `sessionKey`. */
export const humanTurn = (sessionKey: string, extra: Partial<RecordInput> = {}): RecordInput => ({
  sessionKey,
  kind: 'human_direct_message',
  actorType: 'human',
  summary: 'human message via telegram',
  payload: { channel: 'telegram' },
  ...extra,
});
