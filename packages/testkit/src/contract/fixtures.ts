// What every feature file of the StateStore contract shares: the runner, the current store, the
// fixture keys and commands, and the reads and checks the features repeat.
import { expect } from 'expect';

import {
  decodeRecordInput,
  evolve,
  fromWatermarks,
  isSessionKey,
  replayCursor,
  toSessionEvent,
  toWatermarks,
  type ActorType,
  type AppendCommand,
  type AppendOutcome,
  type AppendRequest,
  type CursorEvent,
  type CursorPair,
  type CursorRow,
  type CursorState,
  type EventKind,
  type Notice,
  type ScanRequest,
  type SessionKey,
  type SignalLogHead,
  type StateStore,
  type SessionEvent,
  type StoredEvent,
  type WatchVia,
} from '@session-state/domain';

import type { StoreHarness } from '../stores.js';

/** The test functions the suite calls: jest, vitest (globals) and `node:test` all fit. */
export interface TestRunner {
  describe(name: string, body: () => void): unknown;
  /** `timeoutMs` is a hang guard for the property tests; a runner without that argument ignores it. */
  test(name: string, body: () => Promise<void> | void, timeoutMs?: number): unknown;
  beforeEach(body: () => Promise<void>): unknown;
  afterEach(body: () => Promise<void>): unknown;
}

/** The runner's globals (jest; vitest with `globals: true`), or a clear error naming what to pass. */
export function globalTestRunner(): TestRunner {
  const scope = globalThis as Partial<Record<keyof TestRunner, unknown>>;
  const missing = (['describe', 'test', 'beforeEach', 'afterEach'] as const).filter((name) => typeof scope[name] !== 'function');
  if (missing.length > 0) {
    throw new TypeError(`describeStateStoreContract: no global ${missing.join(', ')}; pass the runner as the third argument, e.g. import { describe, test, beforeEach, afterEach } from 'node:test'`);
  }
  return scope as TestRunner;
}

/** Opens a harness on fresh state for each test: a store kind's `open`. */
export type StateStoreFactory = () => Promise<StoreHarness>;

/** What a feature file is given: the runner, the factory, and the current test's store and harness. */
export interface Suite {
  readonly runner: TestRunner;
  readonly factory: StateStoreFactory;
  /** The current test's store; after `reopened()` it is the reopened one. */
  readonly store: StateStore;
  harness(): StoreHarness;
  /** The durable state reopened: a new store over what was committed (for memory, a new view of the same state). */
  reopened(): Promise<StateStore>;
  /** Tells the suite the test closed its store itself. */
  closedByTest(): void;
}

/** Runs `body` on a fresh harness (its reopen tracked), then closes the latest store and cleans up. */
export async function onFreshStore(factory: StateStoreFactory, body: (store: StateStore, harness: StoreHarness) => Promise<void>): Promise<void> {
  const harness = await factory();
  let latest = harness.store;
  try {
    await body(latest, { ...harness, reopen: async () => (latest = await harness.reopen()) });
  } finally {
    await latest.close();
    await harness.cleanup();
  }
}

// Property runs per law; raise with STATE_STORE_CONTRACT_RUNS for a longer search.
export const PROPERTY_RUNS = Number(process.env['STATE_STORE_CONTRACT_RUNS'] ?? '') || 40;
/** Hang guard for tests that open many stores or write many rows; no test asserts wall-clock time. */
export const PROPERTY_TIMEOUT_MS = 120_000;

export const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);
export const MINUTE = 60_000;
export const DAY = 86_400_000;

export function key(raw: string): SessionKey {
  if (!isSessionKey(raw)) throw new Error(`test fixture: ${raw} is not a session key`);
  return raw;
}

export const [A, B, C, D, E] = ['a', 'b', 'c', 'd', 'e'].map((id) => key(`agent:${id}:main`)) as [SessionKey, SessionKey, SessionKey, SessionKey, SessionKey];
export const CHILD = key('agent:a:subagent:child-1');

/** The `record` fields a test may set; the command is built by the domain's own decoder. */
export interface RecordSpec {
  readonly kind?: EventKind;
  readonly actorType?: ActorType;
  readonly actorSessionKey?: string;
  readonly summary?: string;
  readonly payload?: Record<string, unknown>;
  readonly dedupeKey?: string;
  readonly occurredAt?: string | number;
  readonly onlyIfWatched?: boolean;
  readonly watchers?: readonly string[];
}

export function command(sessionKey: SessionKey, spec: RecordSpec = {}): AppendCommand {
  const decoded = decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 'a change', ...spec, sessionKey });
  if (decoded._tag === 'Left') throw new Error(`test fixture: ${decoded.left.message}`);
  return decoded.right;
}

/** A notifying change to `target` made by another agent session. */
export const foreign = (by: SessionKey = C): RecordSpec => ({ kind: 'goal_changed', actorType: 'agent', actorSessionKey: by });

export function request(sessionKey: SessionKey, spec: RecordSpec = {}, appendedAt = T0, seedWatcher?: SessionKey): AppendRequest {
  return { command: command(sessionKey, spec), appendedAt, ...(seedWatcher !== undefined ? { seedWatcher } : {}) };
}

export type Appended = Extract<AppendOutcome, { type: 'appended' }>;

export function expectAppended(outcome: AppendOutcome | undefined): Appended {
  if (outcome?.type !== 'appended') throw new Error(`expected an appended outcome, got ${JSON.stringify(outcome)}`);
  return outcome;
}

export async function append(store: StateStore, sessionKey: SessionKey, spec: RecordSpec = {}, appendedAt = T0, seedWatcher?: SessionKey): Promise<Appended> {
  const [outcome] = await store.append([request(sessionKey, spec, appendedAt, seedWatcher)]);
  return expectAppended(outcome);
}

export const appendSeq = async (store: StateStore, sessionKey: SessionKey, spec: RecordSpec = {}, appendedAt = T0, seedWatcher?: SessionKey): Promise<StoredEvent['sequence']> =>
  (await append(store, sessionKey, spec, appendedAt, seedWatcher)).event.sequence;

export async function appendMany(store: StateStore, sessionKey: SessionKey, count: number, appendedAt = T0): Promise<StoredEvent[]> {
  const outcomes = await store.append(Array.from({ length: count }, (_, i) => request(sessionKey, { summary: `change ${i}` }, appendedAt)));
  return outcomes.map((outcome) => expectAppended(outcome).event);
}

export async function watchAll(store: StateStore, pairs: readonly (readonly [SessionKey, SessionKey])[], now = T0): Promise<void> {
  for (const [watcher, target] of pairs) await store.watch({ watcher, target, now });
}

export async function headOf(store: StateStore, sessionKey: SessionKey): Promise<SignalLogHead> {
  const [row] = await store.readHeads([sessionKey]);
  return row === undefined ? { head: 0 as SignalLogHead['head'], pruneWatermark: 0 as SignalLogHead['head'] } : { head: row.head, pruneWatermark: row.pruneWatermark };
}

/** Every retained event of a session, paging with `nextSince` as a reader would; `pages` gets each page's size and hasMore. */
export async function readAll(store: StateStore, sessionKey: SessionKey, since = 0, limit = 200, pages?: { count: number; hasMore: boolean }[]): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  let next = since;
  for (let page = 0; page < 10_000; page++) {
    const result = await store.readChanges(sessionKey, next as StoredEvent['sequence'], limit);
    events.push(...result.events);
    pages?.push({ count: result.events.length, hasMore: result.hasMore });
    const last = result.events[result.events.length - 1];
    if (last !== undefined) next = last.sequence;
    if (!result.hasMore) return events;
  }
  throw new Error('paging did not end');
}

/** Stored events as readChanges returns them. */
export const asRead = (...events: (StoredEvent | undefined)[]): SessionEvent[] => events.map((event) => toSessionEvent(event as StoredEvent));

export const seqs = (events: readonly { readonly sequence: number }[]): number[] => events.map((event) => event.sequence);
export const seqOf = (n: number) => n as StoredEvent['sequence'];
export const byWatcher = (a: Notice, b: Notice): number => (a.watcher < b.watcher ? -1 : a.watcher > b.watcher ? 1 : 0);
export const pairOf = (row: { readonly watcher: string; readonly target: string }): string => `${row.watcher} -> ${row.target}`;
export const watermarks = (row: CursorRow | undefined) => (row === undefined ? undefined : { acked: row.acked, notified: row.notified, material: row.material });
export const started = (at: number, via: WatchVia = 'watch'): CursorEvent => ({ type: 'watch_started', via, at: at as StoredEvent['sequence'] });
/** The notice a store gives for a pair. */
export const noticeOf = (watcher: SessionKey, target: SessionKey, acked: number, notified: number, reason: Notice['reason']): Notice => ({ watcher, target, acked: seqOf(acked), notified: seqOf(notified), reason });
/** What a call rejected with, or undefined when it resolved. */
export const rejection = (call: Promise<unknown>): Promise<unknown> => call.then(() => undefined, (error: unknown) => error);

export const cursorOf = async (store: StateStore, watcher: SessionKey, target: SessionKey): Promise<CursorRow | undefined> => (await store.listCursors({ watcher, target }))[0];

/** Drives one prune request to completion, checking every batch is bounded. */
export async function pruneAll(store: StateStore, now: number, maxAgeMs: number, maxRows: number, batchSize = 1000, cursorMaxAgeMs?: number) {
  let eventsDeleted = 0;
  const expired: string[] = [];
  // Each batch resumes the journal's retention where the previous one stopped, as the facade's run does.
  let journalAfter: number | undefined;
  for (let call = 0; call < 10_000; call++) {
    const batch = await store.prune({ now, maxAgeMs, maxRows, batchSize, ...(cursorMaxAgeMs !== undefined ? { cursorMaxAgeMs } : {}), ...(journalAfter !== undefined ? { journalAfter } : {}) });
    journalAfter = batch.journalAfter;
    expect(batch.eventsDeleted).toBeLessThanOrEqual(batchSize);
    eventsDeleted += batch.eventsDeleted;
    expired.push(...batch.expiredCursors.map(pairOf));
    if (batch.done) return { eventsDeleted, expired, calls: call + 1 };
  }
  throw new Error('prune never reported done');
}

/** A journal entry as the tests compare it: the pair, the event, the watermarks after it and the time (no position). */
export const viewed = (watcher: string, target: string, event: CursorEvent, after: readonly number[], at: number) => ({ pair: `${watcher} -> ${target}`, event, after, at });

/** The journal entries a call added (by position: retention may delete older ones meanwhile), viewed. */
export const journalDuring = async (store: StateStore, call: () => Promise<unknown>) => (await journalAnd(store, call))[1];

/** What a call answered, and the journal entries it added. */
export async function journalAnd<T>(store: StateStore, call: () => Promise<T>): Promise<[T, ReturnType<typeof viewed>[]]> {
  const before = Math.max(0, ...(await store.readCursorJournal()).map((entry) => entry.position));
  const answer = await call();
  const added = (await store.readCursorJournal()).filter((entry) => entry.position > before);
  return [answer, added.map((entry) => viewed(entry.watcher, entry.target, entry.event, [entry.acked, entry.notified, entry.material], entry.recordedAt))];
}

/** Each journal entry as `watcher -> target type`. */
export const journalTypes = async (store: StateStore): Promise<string[]> => (await store.readCursorJournal()).map((entry) => `${pairOf(entry)} ${entry.event.type}`);

/**
 * Checks the journal of one live pair against its row: every entry after the first of the
 * current watch sets what `evolve` says (status, acked, notified; material never below), and the
 * replay of the journal and the target's retained events equals the row. Returns a description
 * of the first mismatch, or undefined; `replayedRows` gets the replayed cursor (no touch time).
 */
export async function replayMismatch(store: StateStore, row: CursorRow, replayedRows: CursorRow[] = []): Promise<string | undefined> {
  const entries = await store.readCursorJournal({ watcher: row.watcher, target: row.target });
  const pair = pairOf(row);
  if (entries.length === 0) return `${pair}: a live cursor has no journal entry`;
  let state: CursorState;
  for (const entry of entries) {
    state = entry.event.type === 'watch_started' || state === undefined ? fromWatermarks(entry) : evolve(state, entry.event);
    if (entry.event.type === 'watch_ended') {
      state = undefined;
      continue;
    }
    const folded = state === undefined ? undefined : toWatermarks(state);
    const status = fromWatermarks(entry).status;
    if (folded === undefined || fromWatermarks(folded).status !== status || folded.acked !== entry.acked || (status === 'pending' && folded.notified !== entry.notified) || folded.material > entry.material || folded.takenUntil !== entry.takenUntil || folded.ambient !== entry.ambient) {
      return `${pair}: entry ${entry.position} (${entry.event.type}) stores ${JSON.stringify([entry.acked, entry.notified, entry.material, entry.takenUntil, entry.ambient])}, evolve gives ${JSON.stringify(folded)}`;
    }
    state = fromWatermarks(entry);
  }
  const replayed = replayCursor(entries, await readAll(store, row.target));
  const stored = toWatermarks(fromWatermarks(row));
  const rebuilt = replayed === undefined ? undefined : toWatermarks(replayed);
  if (rebuilt !== undefined) replayedRows.push({ watcher: row.watcher, target: row.target, ...rebuilt, touchedAt: 0 });
  if (JSON.stringify(rebuilt) !== JSON.stringify(stored)) {
    return `${pair}: replay gives ${JSON.stringify(rebuilt)}, the row holds ${JSON.stringify(stored)} (journal ${JSON.stringify(entries.map((e) => [e.event.type, e.acked, e.notified, e.material]))})`;
  }
  return undefined;
}

export async function liveRow(store: StateStore, watcher: SessionKey, target: SessionKey): Promise<CursorRow> {
  const row = await cursorOf(store, watcher, target);
  if (row === undefined) throw new Error('the cursor is gone');
  return row;
}

/** Every page of `scanPending` (`limit` cursors each), a turn between pages as the app's pacer gives; the notices joined. */
export async function scanAll(store: StateStore, request: Omit<ScanRequest, 'after' | 'limit'>, limit = 500): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  for (let after: CursorPair | undefined, first = true; first || after !== undefined; first = false) {
    if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
    const page = await store.scanPending({ ...request, limit, ...(after !== undefined ? { after } : {}) });
    notices.push(...page.notices);
    after = page.next;
  }
  return notices;
}

/** The restart scan (`raise`) and the held notices (no `raise`; of `targets`, or all), over every page. */
export const restartScanAll = (store: StateStore, now: number, owns?: ScanRequest['owns'], limit?: number) => scanAll(store, { raise: { now }, ...(owns && { owns }) }, limit);
export const heldNotices = (store: StateStore, owns?: ScanRequest['owns'], targets?: readonly SessionKey[], limit?: number) => scanAll(store, { ...(owns && { owns }), ...(targets && { targets }) }, limit);
