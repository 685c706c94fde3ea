// The StateStore contract: the storage behaviour of SPEC sections 2-7 stated once, run against
// every adapter by a two-line `*.contract.test.ts` that passes its own factory (see testRunner.ts).
import { expect } from 'expect';
import fc from 'fast-check';

import {
  comparePairs,
  decodeRecordInput,
  evolve,
  fromWatermarks,
  historyGap,
  isSessionKey,
  isStoreError,
  noticeText,
  planAppend,
  replayCursor,
  toSessionEvent,
  toWatermarks,
  type ActorType,
  type AppendCommand,
  type AppendOutcome,
  type AppendRequest,
  type CursorEvent,
  type CursorJournalEntry,
  type CursorRow,
  type CursorState,
  type EventKind,
  type Notice,
  type SessionKey,
  type SignalLogHead,
  type StateStore,
  type StoredEvent,
} from '@session-state/domain';

import type { StoreHarness } from '../stores.js';
import { describeOverviewContract } from './overview.contract.js';
import { globalTestRunner, type TestRunner } from './testRunner.js';
import { describeTextRoundTrip } from './textRoundTrip.contract.js';

// --- the factory ---------------------------------------------------------------------------

/** Opens a harness on fresh state for each test: a store kind's `open`. */
export type StateStoreFactory = () => Promise<StoreHarness>;

// --- fixtures ------------------------------------------------------------------------------

// Property runs per law; raise with STATE_STORE_CONTRACT_RUNS for a longer search.
const PROPERTY_RUNS = Number(process.env['STATE_STORE_CONTRACT_RUNS'] ?? '') || 40;
/**
 * Hang guard for the property tests, which open a fresh store for each of PROPERTY_RUNS runs
 * (a server store creates and migrates a schema each time: seconds in all on a busy machine).
 * Jest's 5 s default failed them on a loaded CI run; no test here asserts wall-clock time.
 */
const PROPERTY_TIMEOUT_MS = 120_000;

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);

/** Watchers (of two targets each) in the paged restart-scan test: many chunks of every store's scan. */
const SCAN_WATCHERS = 2000;
const MINUTE = 60_000;
const DAY = 86_400_000;

function key(raw: string): SessionKey {
  if (!isSessionKey(raw)) throw new Error(`test fixture: ${raw} is not a session key`);
  return raw;
}

const A = key('agent:a:main');
const B = key('agent:b:main');
const C = key('agent:c:main');
const D = key('agent:d:main');
const E = key('agent:e:main');
const CHILD = key('agent:a:subagent:child-1');

/** The `record` fields a test may set; the command is built by the domain's own decoder. */
interface RecordSpec {
  readonly kind?: EventKind;
  readonly actorType?: ActorType;
  readonly actorSessionKey?: string;
  readonly summary?: string;
  readonly payload?: Record<string, unknown>;
  readonly dedupeKey?: string;
  readonly occurredAt?: string | number;
  readonly onlyIfWatched?: boolean;
}

function command(sessionKey: SessionKey, spec: RecordSpec = {}): AppendCommand {
  const decoded = decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 'a change', ...spec, sessionKey });
  if (decoded._tag === 'Left') throw new Error(`test fixture: ${decoded.left.message}`);
  return decoded.right;
}

/** A notifying change to `target` made by another agent session. */
const foreign = (by: SessionKey = C): RecordSpec => ({ kind: 'goal_changed', actorType: 'agent', actorSessionKey: by });

function request(sessionKey: SessionKey, spec: RecordSpec = {}, appendedAt = T0, seedWatcher?: SessionKey): AppendRequest {
  return { command: command(sessionKey, spec), appendedAt, ...(seedWatcher !== undefined ? { seedWatcher } : {}) };
}

type Appended = Extract<AppendOutcome, { type: 'appended' }>;

function expectAppended(outcome: AppendOutcome | undefined): Appended {
  if (outcome?.type !== 'appended') throw new Error(`expected an appended outcome, got ${JSON.stringify(outcome)}`);
  return outcome;
}

async function append(store: StateStore, sessionKey: SessionKey, spec: RecordSpec = {}, appendedAt = T0, seedWatcher?: SessionKey): Promise<Appended> {
  const [outcome] = await store.append([request(sessionKey, spec, appendedAt, seedWatcher)]);
  return expectAppended(outcome);
}

async function appendMany(store: StateStore, sessionKey: SessionKey, count: number, appendedAt = T0): Promise<StoredEvent[]> {
  const outcomes = await store.append(Array.from({ length: count }, (_, i) => request(sessionKey, { summary: `change ${i}` }, appendedAt)));
  return outcomes.map((outcome) => expectAppended(outcome).event);
}

async function headOf(store: StateStore, sessionKey: SessionKey): Promise<SignalLogHead> {
  const [row] = await store.readHeads([sessionKey]);
  return row === undefined ? { head: 0 as SignalLogHead['head'], pruneWatermark: 0 as SignalLogHead['head'] } : { head: row.head, pruneWatermark: row.pruneWatermark };
}

/** Every retained event of a session, paging with `nextSince` as a reader would. */
async function readAll(store: StateStore, sessionKey: SessionKey, since = 0, limit = 200): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  let next = since;
  for (let page = 0; page < 10_000; page++) {
    const result = await store.readChanges(sessionKey, next as StoredEvent['sequence'], limit);
    events.push(...result.events);
    const last = result.events[result.events.length - 1];
    if (last !== undefined) next = last.sequence;
    if (!result.hasMore) return events;
  }
  throw new Error('paging did not end');
}

const seqs = (events: readonly StoredEvent[]): number[] => events.map((event) => event.sequence);
const byWatcher = (a: Notice, b: Notice): number => (a.watcher < b.watcher ? -1 : a.watcher > b.watcher ? 1 : 0);
const pairOf = (row: CursorRow): string => `${row.watcher} -> ${row.target}`;
const watermarks = (row: CursorRow | undefined) => (row === undefined ? undefined : { acked: row.acked, notified: row.notified, material: row.material });

async function cursorOf(store: StateStore, watcher: SessionKey, target: SessionKey): Promise<CursorRow | undefined> {
  const rows = await store.listCursors({ watcher, target });
  return rows[0];
}

/** Drives one prune request to completion, checking every batch is bounded. */
async function pruneAll(store: StateStore, now: number, maxAgeMs: number, maxRows: number, batchSize = 1000) {
  let eventsDeleted = 0;
  const expired: string[] = [];
  // Each batch resumes the journal's retention where the previous one stopped, as the facade's run does.
  let journalAfter: number | undefined;
  for (let call = 0; call < 10_000; call++) {
    const batch = await store.prune({ now, maxAgeMs, maxRows, batchSize, ...(journalAfter !== undefined ? { journalAfter } : {}) });
    journalAfter = batch.journalAfter;
    expect(batch.eventsDeleted).toBeLessThanOrEqual(batchSize);
    eventsDeleted += batch.eventsDeleted;
    expired.push(...batch.expiredCursors.map((pair) => `${pair.watcher} -> ${pair.target}`));
    if (batch.done) return { eventsDeleted, expired, calls: call + 1 };
  }
  throw new Error('prune never reported done');
}

/** A journal entry as the tests compare it: the event, the watermarks after it and the time (no position). */
const journalView = (entry: CursorJournalEntry) => ({
  pair: `${entry.watcher} -> ${entry.target}`,
  event: entry.event,
  after: [entry.acked, entry.notified, entry.material],
  at: entry.recordedAt,
});

/** The journal entries a call added (by position: retention may delete older ones meanwhile), viewed. */
async function journalDuring(store: StateStore, call: () => Promise<unknown>) {
  const before = Math.max(0, ...(await store.readCursorJournal()).map((entry) => entry.position));
  await call();
  return (await store.readCursorJournal()).filter((entry) => entry.position > before).map(journalView);
}

const started = (at: number, via: 'spawn' | 'watch' = 'watch'): CursorEvent => ({ type: 'watch_started', via, at: at as StoredEvent['sequence'] });
const seqOf = (n: number) => n as StoredEvent['sequence'];

/**
 * Checks the journal of one live pair against its row: every entry after the first of the
 * current watch sets what `evolve` says (status, acked, notified; material never below), and the
 * replay of the journal and the target's retained events equals the row. Returns a description
 * of the first mismatch, or undefined.
 */
async function replayMismatch(store: StateStore, row: CursorRow): Promise<string | undefined> {
  const entries = await store.readCursorJournal({ watcher: row.watcher, target: row.target });
  const pair = `${row.watcher} -> ${row.target}`;
  if (entries.length === 0) return `${pair}: a live cursor has no journal entry`;
  let state: CursorState;
  for (const entry of entries) {
    state = entry.event.type === 'watch_started' || state === undefined ? fromWatermarks(entry) : evolve(state, entry.event);
    if (entry.event.type === 'watch_ended') {
      state = undefined;
      continue;
    }
    const folded = state === undefined ? undefined : toWatermarks(state);
    if (folded === undefined || fromWatermarks(folded).status !== fromWatermarks(entry).status || folded.acked !== entry.acked || (fromWatermarks(entry).status === 'pending' && folded.notified !== entry.notified) || folded.material > entry.material) {
      return `${pair}: entry ${entry.position} (${entry.event.type}) stores ${JSON.stringify([entry.acked, entry.notified, entry.material])}, evolve gives ${JSON.stringify(folded)}`;
    }
    state = fromWatermarks(entry);
  }
  const replayed = replayCursor(entries, await readAll(store, row.target));
  const stored = toWatermarks(fromWatermarks(row));
  const rebuilt = replayed === undefined ? undefined : toWatermarks(replayed);
  if (JSON.stringify(rebuilt) !== JSON.stringify(stored)) {
    return `${pair}: replay gives ${JSON.stringify(rebuilt)}, the row holds ${JSON.stringify(stored)} (journal ${JSON.stringify(entries.map((e) => [e.event.type, e.acked, e.notified, e.material]))})`;
  }
  return undefined;
}

// --- the suite -----------------------------------------------------------------------------

/**
 * Registers the StateStore contract for one adapter. `factory` gives each test fresh state; `runner` declares the tests.
 *
 * @example describeStateStoreContract('memory', memoryKind.open);
 */
export function describeStateStoreContract(name: string, factory: StateStoreFactory, runner: TestRunner = globalTestRunner()): void {
  const { describe, test, beforeEach, afterEach } = runner;
  describe(`StateStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: StateStore;
    let offersLeanReads = true;
    let open = false;

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      offersLeanReads = harness.leanReads ?? true;
      open = true;
    });

    afterEach(async () => {
      if (open) await store.close();
      open = false;
      await harness.cleanup();
    });

    describeOverviewContract(() => store, runner);
    describeTextRoundTrip(() => harness, runner);

    /** The durable state reopened: a new store over what was committed (for memory, a new view of the same state). */
    async function reopened(): Promise<StateStore> {
      store = await harness.reopen();
      return store;
    }

    // --- append and the head ---------------------------------------------------------------

    describe('append and the head', () => {
      test('sequences strictly increase per session and each append raises the head to its sequence', async () => {
        const outcomes = await store.append([request(A), request(B), request(A), request(A), request(B)]);
        const events = outcomes.map((outcome) => expectAppended(outcome).event);
        for (const sessionKey of [A, B]) {
          const own = seqs(events.filter((event) => event.sessionKey === sessionKey));
          own.forEach((sequence, i) => {
            expect(sequence).toBeGreaterThan(i === 0 ? 0 : (own[i - 1] as number));
          });
          expect(await headOf(store, sessionKey)).toEqual({ head: own[own.length - 1], pruneWatermark: 0 });
          expect(seqs(await readAll(store, sessionKey))).toEqual(own);
        }
      });

      test('a session with no events has no head row and reads as version 0 with no events', async () => {
        await append(store, A);
        expect(await store.readHeads([B])).toEqual([]);
        const page = await store.readChanges(B, 0 as StoredEvent['sequence'], 200);
        expect(page).toEqual({ head: { head: 0, pruneWatermark: 0 }, events: [], hasMore: false });
      });

      test('the stored event keeps every field of the command and is what readChanges returns', async () => {
        const { event } = await append(
          store,
          B,
          { kind: 'run_failed', actorType: 'agent', actorSessionKey: A, summary: 'child run failed', payload: { outcome: 'timeout', n: [1, 'x', null] }, dedupeKey: 'run-terminal:r1', occurredAt: '2026-11-29T09:00:00Z' },
          T0 + 5,
        );
        expect(event).toMatchObject({
          sessionKey: B,
          kind: 'run_failed',
          actorType: 'agent',
          actorSessionKey: A,
          summary: 'child run failed',
          payload: { outcome: 'timeout', n: [1, 'x', null] },
          dedupeKey: 'run-terminal:r1',
          occurredAt: '2026-11-29T09:00:00.000Z',
          appendedAt: T0 + 5,
        });
        expect(await readAll(store, B)).toEqual([event]);
      });

      test('occurredAt defaults to the append time, as ISO', async () => {
        const { event } = await append(store, B, {}, T0 + 7);
        expect(event.occurredAt).toBe(new Date(T0 + 7).toISOString());
      });

      test('the head never decreases when every row is pruned, and the next sequence continues above it', async () => {
        const events = await appendMany(store, B, 3);
        const head = (events[2] as StoredEvent).sequence;
        await pruneAll(store, T0, DAY, 0);
        expect(await readAll(store, B)).toEqual([]);
        expect(await headOf(store, B)).toEqual({ head, pruneWatermark: head });
        const next = await append(store, B);
        expect(next.event.sequence).toBeGreaterThan(head);
        expect(await headOf(store, B)).toEqual({ head: next.event.sequence, pruneWatermark: head });
      });

      test('deleteSession keeps the head as a tombstone and a recreated session continues above its old version', async () => {
        const events = await appendMany(store, B, 4);
        const head = (events[3] as StoredEvent).sequence;
        const result = await store.deleteSession(B, T0);
        expect(result.eventsDeleted).toBe(4);
        expect(await store.readHeads([B])).toEqual([{ sessionKey: B, head, pruneWatermark: head }]);
        expect(await readAll(store, B)).toEqual([]);

        const again = await append(store, B);
        expect(again.event.sequence).toBeGreaterThan(head);
        const atOld = await store.readChanges(B, head, 200);
        expect(seqs(atOld.events)).toEqual([again.event.sequence]);
        expect(historyGap(atOld.head, head)).toBe(false);
        const fromZero = await store.readChanges(B, 0 as StoredEvent['sequence'], 200);
        expect(historyGap(fromZero.head, 0 as StoredEvent['sequence'])).toBe(true);
        expect(seqs(fromZero.events)).toEqual([again.event.sequence]);
      });

      test('readHeads returns rows (tombstones included) only for keys that have a head', async () => {
        const a = await append(store, A);
        await appendMany(store, B, 2);
        await store.deleteSession(B, T0);
        const rows = [...(await store.readHeads([A, B, C, A]))].sort((x, y) => (x.sessionKey < y.sessionKey ? -1 : 1));
        expect(rows.map((row) => row.sessionKey)).toEqual([A, B]);
        expect(rows[0]).toEqual({ sessionKey: A, head: a.event.sequence, pruneWatermark: 0 });
        expect(rows[1]?.head).toBeGreaterThan(a.event.sequence);
        expect(rows[1]?.pruneWatermark).toBe(rows[1]?.head);
      });

      test('readHeads of more than a thousand keys (repeats, unknown keys, quotes) returns each known key once, in the order first given', async () => {
        const known = [A, B, C];
        for (const key of known) await append(store, key);
        const unknown = Array.from({ length: 1200 }, (_, i) => `agent:none${i}:"main"` as SessionKey);
        const keys = [C, ...unknown.slice(0, 700), A, C, ...unknown.slice(700), B, A];
        const rows = await store.readHeads(keys);
        expect(rows.map((row) => row.sessionKey)).toEqual([C, A, B]);
        expect(rows).toEqual(await Promise.all([C, A, B].map(async (key) => (await store.readHeads([key]))[0])));
      });

      test('readHeads without keys returns every head row (tombstones included), ordered by session key', async () => {
        await append(store, C);
        await append(store, A);
        await appendMany(store, B, 2);
        await store.deleteSession(B, T0);
        const rows = await store.readHeads();
        expect(rows.map((row) => row.sessionKey)).toEqual([A, B, C].sort());
        expect(rows).toEqual(await store.readHeads([A, B, C].sort() as SessionKey[]));
      });
    });

    // --- reading changes ---------------------------------------------------------------------

    describe('readChanges', () => {
      test('the prune watermark is exact at the boundary: asked at it there is no gap, one below there is', async () => {
        const events = await appendMany(store, B, 5);
        await pruneAll(store, T0, DAY, 2);
        const watermark = (events[2] as StoredEvent).sequence;
        const retained = seqs(events.slice(3));

        const atWatermark = await store.readChanges(B, watermark, 200);
        expect(atWatermark.head.pruneWatermark).toBe(watermark);
        expect(historyGap(atWatermark.head, watermark)).toBe(false);
        expect(seqs(atWatermark.events)).toEqual(retained);

        const below = (watermark - 1) as StoredEvent['sequence'];
        const belowPage = await store.readChanges(B, below, 200);
        expect(historyGap(belowPage.head, below)).toBe(true);
        expect(seqs(belowPage.events)).toEqual(retained);
      });

      test('paging 450 events with limit 200 and nextSince reaches the head with no skip, no repeat, and exact hasMore', async () => {
        // Interleave another session so the sequences of B are not contiguous.
        const batch = Array.from({ length: 900 }, (_, i) => request(i % 2 === 0 ? B : C, { summary: `change ${i}` }));
        const all = (await store.append(batch)).map((outcome) => expectAppended(outcome).event);
        const expected = seqs(all.filter((event) => event.sessionKey === B));
        const pages: { count: number; hasMore: boolean }[] = [];
        const seen: number[] = [];
        let since = 0;
        for (let i = 0; i < 10; i++) {
          const page = await store.readChanges(B, since as StoredEvent['sequence'], 200);
          pages.push({ count: page.events.length, hasMore: page.hasMore });
          seen.push(...seqs(page.events));
          since = page.events[page.events.length - 1]?.sequence ?? since;
          if (!page.hasMore) break;
        }
        expect(pages).toEqual([
          { count: 200, hasMore: true },
          { count: 200, hasMore: true },
          { count: 50, hasMore: false },
        ]);
        expect(seen).toEqual(expected);
        expect(since).toBe((await headOf(store, B)).head);
      });

      test('hasMore is false when the page ends exactly at the last retained event', async () => {
        const events = await appendMany(store, B, 4);
        const page = await store.readChanges(B, 0 as StoredEvent['sequence'], 4);
        expect(seqs(page.events)).toEqual(seqs(events));
        expect(page.hasMore).toBe(false);
        const short = await store.readChanges(B, 0 as StoredEvent['sequence'], 3);
        expect(short.hasMore).toBe(true);
      });

      test('since above the head returns no events and no gap', async () => {
        const events = await appendMany(store, B, 2);
        await pruneAll(store, T0, DAY, 1);
        const above = ((events[1] as StoredEvent).sequence + 10) as StoredEvent['sequence'];
        const page = await store.readChanges(B, above, 200);
        expect(page.events).toEqual([]);
        expect(page.hasMore).toBe(false);
        expect(historyGap(page.head, above)).toBe(false);
      });

      test('readSessionChanges, when the store offers it, is readChanges with each event as toSessionEvent maps it', async () => {
        if (!offersLeanReads) {
          expect(store.readSessionChanges).toBeUndefined();
          return;
        }
        if (store.readSessionChanges === undefined) throw new Error('the harness says this store offers readSessionChanges, but it has none');
        await append(store, B, { ...foreign(), summary: 'with payload', payload: { channel: 'x', n: 1 }, dedupeKey: 'lean-1' });
        await appendMany(store, B, 6);
        await append(store, C, foreign());
        await pruneAll(store, T0, DAY, 5);
        for (const [since, limit] of [[0, 200], [0, 2], [3, 3], [1000, 200]] as const) {
          const full = await store.readChanges(B, since as StoredEvent['sequence'], limit);
          const lean = await store.readSessionChanges(B, since as StoredEvent['sequence'], limit);
          expect(lean).toEqual({ head: full.head, events: full.events.map(toSessionEvent), hasMore: full.hasMore });
        }
        const none = await store.readSessionChanges('agent:nobody:main' as SessionKey, 0 as StoredEvent['sequence'], 200);
        expect(none).toEqual({ head: { head: 0, pruneWatermark: 0 }, events: [], hasMore: false });
      });

      test('reading never creates or moves a cursor', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await append(store, B, foreign());
        const before = await store.listCursors();
        await store.readChanges(B, 0 as StoredEvent['sequence'], 200);
        await store.readHeads([A, B, C]);
        expect(await store.listCursors()).toEqual(before);
      });
    });

    // --- dedupe ------------------------------------------------------------------------------

    describe('dedupe keys', () => {
      test('a duplicate returns the existing event: no head bump, no new row, no cursor move', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const first = await append(store, B, { ...foreign(), dedupeKey: 'compacted:op-1' });
        const cursorsBefore = await store.listCursors();
        const headBefore = await headOf(store, B);
        const [again] = await store.append([request(B, { ...foreign(D), summary: 'different', dedupeKey: 'compacted:op-1' }, T0 + MINUTE)]);
        expect(again).toEqual({ type: 'duplicate', event: first.event });
        expect(await headOf(store, B)).toEqual(headBefore);
        expect(await store.listCursors()).toEqual(cursorsBefore);
        expect(seqs(await readAll(store, B))).toEqual([first.event.sequence]);
      });

      test('a duplicate inside the same batch returns the event the batch just wrote', async () => {
        const [first, second] = await store.append([request(B, { dedupeKey: 'k' }), request(B, { dedupeKey: 'k', summary: 'again' })]);
        const written = expectAppended(first).event;
        expect(second).toEqual({ type: 'duplicate', event: written });
      });

      test('dedupe keys are unique across the whole store, not per session', async () => {
        const first = await append(store, A, { dedupeKey: 'run-terminal:r9' });
        const [other] = await store.append([request(B, { dedupeKey: 'run-terminal:r9' })]);
        expect(other).toEqual({ type: 'duplicate', event: first.event });
        expect(await store.readHeads([B])).toEqual([]);
      });

      test('a retried spawn edge (same dedupe key) touches no cursor', async () => {
        const spawn = { kind: 'child_spawned' as const, actorType: 'agent' as const, actorSessionKey: A, dedupeKey: 'child-spawned:run-1' };
        await append(store, CHILD, spawn, T0, A);
        await append(store, CHILD, foreign(), T0 + 1);
        const pending = await store.listCursors();
        const [retry] = await store.append([request(CHILD, spawn, T0 + 2, A)]);
        expect(retry?.type).toBe('duplicate');
        expect(await store.listCursors()).toEqual(pending);
      });

      test('a dedupe key is reusable once its event is pruned or its session deleted', async () => {
        const first = await append(store, B, { dedupeKey: 'k1' });
        await pruneAll(store, T0, DAY, 0);
        const reused = await append(store, B, { dedupeKey: 'k1' });
        expect(reused.event.sequence).toBeGreaterThan(first.event.sequence);

        await append(store, C, { dedupeKey: 'k2' });
        await store.deleteSession(C, T0);
        const [afterDelete] = await store.append([request(C, { dedupeKey: 'k2' })]);
        expect(afterDelete?.type).toBe('appended');
      });
    });

    // --- what is accepted round-trips exactly ------------------------------------------------

    describe('keys and payloads round-trip exactly, or are refused', () => {
      // Well-formed keys beyond ASCII: an astral pair, U+FFFD itself, combining marks, CJK.
      const UNICODE_KEYS = ['agent:\u{1F600}:main', 'agent:\uFFFD:main', 'agent:e\u0301:subagent:\u5B50', 'agent:a:main-\u{10FFFF}'].map(key);
      // What SQLite and PostgreSQL would store as U+FFFD: a lone high, a lone low, a reversed pair.
      const ILL_FORMED = ['agent:\uD83D:main', 'agent:\uDE00:main', 'agent:\uDE00\uD83D:main'];

      test('well-formed unicode session, actor and dedupe keys come back exactly as given, and each is its own key', async () => {
        for (const [i, sessionKey] of UNICODE_KEYS.entries()) {
          const actor = UNICODE_KEYS[(i + 1) % UNICODE_KEYS.length] as SessionKey;
          await store.watch({ watcher: actor, target: sessionKey, now: T0 });
          await append(store, sessionKey, { actorType: 'agent', actorSessionKey: actor, dedupeKey: `dedupe:${sessionKey}` });
        }
        const reread = await reopened();
        for (const [i, sessionKey] of UNICODE_KEYS.entries()) {
          const [event] = await readAll(reread, sessionKey);
          expect(event?.sessionKey).toBe(sessionKey);
          expect(event?.actorSessionKey).toBe(UNICODE_KEYS[(i + 1) % UNICODE_KEYS.length]);
          expect(event?.dedupeKey).toBe(`dedupe:${sessionKey}`);
        }
        expect((await reread.readHeads()).map((row) => row.sessionKey).sort()).toEqual([...UNICODE_KEYS].sort());
        expect((await reread.listCursors()).map(pairOf).sort()).toEqual(UNICODE_KEYS.map((k, i) => `${UNICODE_KEYS[(i + 1) % UNICODE_KEYS.length]} -> ${k}`).sort());
      });

      for (const raw of ILL_FORMED) test(`a key with an unpaired surrogate (${JSON.stringify(raw)}) is refused by every write, and nothing is stored`, async () => {
        const bad = raw as SessionKey; // past the type, as a JavaScript caller would pass it
        await append(store, key('agent:\uFFFD:main'), { dedupeKey: 'dedupe:\uFFFD' }); // what the bad keys would collide with
        const heads = await store.readHeads();
        const cursors = await store.listCursors();
        const base = command(B);
        const requests: AppendRequest[] = [
          { command: { ...base, sessionKey: bad }, appendedAt: T0 },
          { command: { ...base, actorSessionKey: bad }, appendedAt: T0 },
          { command: { ...base, dedupeKey: raw.replace('agent:', 'dedupe:') as typeof base.dedupeKey }, appendedAt: T0 },
          { command: base, appendedAt: T0, seedWatcher: bad },
        ];
        for (const refused of requests) {
          const [outcome] = await store.append([refused]);
          expect(outcome?.type).toBe('failed');
        }
        await expect(store.watch({ watcher: bad, target: A, now: T0 })).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.watch({ watcher: A, target: bad, now: T0 })).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.drain(bad, [{ target: A, notified: 1 as Notice['notified'] }], T0)).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.resetWatcher(bad, T0)).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.unwatch(bad, A, T0)).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.acknowledgeRead({ watcher: bad, target: A, since: 0 as Notice['notified'], through: 1 as Notice['notified'], now: T0 })).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.acknowledgeRead({ watcher: A, target: bad, since: 0 as Notice['notified'], through: 1 as Notice['notified'], now: T0 })).rejects.toMatchObject({ _tag: 'StoreError' });
        await expect(store.deleteSession(bad, T0)).rejects.toMatchObject({ _tag: 'StoreError' });
        expect(await store.readHeads()).toEqual(heads);
        expect(await store.listCursors()).toEqual(cursors);
        expect(await readAll(store, key('agent:\uFFFD:main'))).toHaveLength(1);
      });

      test('a payload comes back exactly as it was decoded: unicode, escapes, nesting, key order, numbers', async () => {
        const payload = {
          z: 'last key first',
          emoji: '\u{1F600} \uFFFD e\u0301 \u5B50',
          escapes: 'quote " backslash \\ tab \t newline \n \u0001 \u2028',
          nested: { list: [1, -0, 1.5e-7, 2 ** 53 - 1, true, null, { deep: ['\u{10FFFF}'] }] },
          10: 'integer-like key',
          'key with \u{1F600}': 'value',
        };
        const decoded = command(A, { payload });
        const written = await append(store, A, { payload });
        const [event] = await readAll(await reopened(), A);
        expect(event?.payload).toEqual(decoded.payload);
        expect(JSON.stringify(event?.payload)).toBe(decoded.payloadJson);
        expect(JSON.stringify(written.event.payload)).toBe(decoded.payloadJson);
      });

      test('the payload stored is the one decoded: a caller mutating its object afterwards changes nothing', async () => {
        const given: Record<string, unknown> = { outcome: 'error', note: 'as validated', nested: { n: 1 } };
        const decoded = command(A, { kind: 'run_failed', actorType: 'system', payload: given });
        // What group commit allows: the caller's turn goes on before the batch is written.
        given['outcome'] = 'not an outcome';
        given['note'] = 'x'.repeat(1_000_000);
        (given['nested'] as { n: number }).n = 2;
        delete given['outcome'];
        const [outcome] = await store.append([{ command: decoded, appendedAt: T0 }]);
        expectAppended(outcome);
        const [event] = await readAll(await reopened(), A);
        expect(event?.payload).toEqual({ outcome: 'error', note: 'as validated', nested: { n: 1 } });
      });

      test('the payload stored is the one decoded: a getter is read once and its later answers are never stored', async () => {
        let reads = 0;
        const payload = {
          get channel(): string {
            reads += 1;
            return reads === 1 ? 'telegram' : 'y'.repeat(10_000);
          },
        };
        const decoded = command(A, { payload });
        const [outcome] = await store.append([{ command: decoded, appendedAt: T0 }]);
        expectAppended(outcome);
        const [event] = await readAll(await reopened(), A);
        expect(event?.payload).toEqual({ channel: 'telegram' });
        expect(reads).toBe(1);
      });
    });

    // --- onlyIfWatched and batch isolation ----------------------------------------------------

    describe('onlyIfWatched and batches', () => {
      test('onlyIfWatched writes nothing while no cursor targets the session, and appends once one does', async () => {
        const [skipped] = await store.append([request(B, { onlyIfWatched: true })]);
        expect(skipped).toEqual({ type: 'skipped', reason: 'unwatched' });
        expect(await store.readHeads([B])).toEqual([]);
        expect(await readAll(store, B)).toEqual([]);

        await store.watch({ watcher: A, target: B, now: T0 });
        const [written] = await store.append([request(B, { onlyIfWatched: true })]);
        expect(written?.type).toBe('appended');
      });

      test('one failing request in a batch fails alone and leaves no trace', async () => {
        // An actor key with an unpaired surrogate cannot be stored exactly by any adapter
        // (SQLite and PostgreSQL would keep U+FFFD), so every store refuses the request.
        const good = command(B, { dedupeKey: 'good' });
        const bad: AppendCommand = { ...command(D, { dedupeKey: 'bad' }), actorSessionKey: 'agent:\uD83D:main' as SessionKey };
        await store.watch({ watcher: A, target: D, now: T0 });
        const cursorsBefore = await store.listCursors();
        const outcomes = await store.append([
          { command: good, appendedAt: T0 },
          { command: bad, appendedAt: T0 },
          { command: command(C), appendedAt: T0 },
        ]);
        expect(outcomes.map((outcome) => outcome.type)).toEqual(['appended', 'failed', 'appended']);
        const failed = outcomes[1];
        expect(failed?.type === 'failed' && isStoreError(failed.error) && failed.error.operation).toBe('append');
        expect(await store.readHeads([D])).toEqual([]);
        expect(await store.listCursors()).toEqual(cursorsBefore);
        // The failed request registered no dedupe key; later calls work normally.
        const [retry] = await store.append([request(D, { dedupeKey: 'bad' })]);
        expect(retry?.type).toBe('appended');
        expect(seqs(await readAll(store, B))).toEqual([expectAppended(outcomes[0]).event.sequence]);
      });
    });

    // --- cursors -----------------------------------------------------------------------------

    describe('cursors', () => {
      test('appends move the target cursors exactly as planAppend says and return its notices', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        const steps: RecordSpec[] = [
          foreign(D),
          { kind: 'goal_changed', actorType: 'agent', actorSessionKey: A },
          { kind: 'compacted', actorType: 'system' },
          { kind: 'human_direct_message', actorType: 'human' },
        ];
        for (const [i, spec] of steps.entries()) {
          const before = await store.listCursors();
          const req = request(B, spec, T0 + i);
          const outcome = expectAppended((await store.append([req]))[0]);
          const plan = planAppend({ command: req.command, sequence: outcome.event.sequence, appendedAt: req.appendedAt, cursorsOnTarget: before.filter((row) => row.target === B) });
          expect(outcome.event).toEqual(plan.event);
          expect([...outcome.notices].sort(byWatcher)).toEqual([...plan.notices].sort(byWatcher));
          const written = new Map(plan.cursorWrites.map((row) => [pairOf(row), row]));
          expect(await store.listCursors()).toEqual(before.map((row) => written.get(pairOf(row)) ?? row));
        }
      });

      test('a foreign notifying event opens one notice; more changes repeat the same text and raise material only', async () => {
        await append(store, B);
        await store.watch({ watcher: A, target: B, now: T0 });
        const acked = (await headOf(store, B)).head;
        const first = await append(store, B, foreign(), T0 + 1);
        expect(first.notices).toEqual([
          { watcher: A, target: B, acked, notified: first.event.sequence, text: noticeText(B, acked), reason: 'first' },
        ]);
        const second = await append(store, B, foreign(), T0 + 2);
        expect(second.notices.map((notice) => [notice.text, notice.reason, notice.notified])).toEqual([[noticeText(B, acked), 'repeat', first.event.sequence]]);
        expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked, notified: first.event.sequence, material: second.event.sequence });
      });

      test('a record on 1,200 watchers of one target (more than a SQLite append transaction steps) notifies each once as planAppend plans it; the next one repeats each notice and raises material on each but its actor', async () => {
        await append(store, B);
        const watchers = Array.from({ length: 1200 }, (_, i) => key(`agent:w${String(i).padStart(4, '0')}:main`));
        for (const watcher of watchers) await store.watch({ watcher, target: B, now: T0 });
        const before = await store.listCursors();
        const req = request(B, foreign(A), T0 + 1);
        const first = expectAppended((await store.append([req]))[0]);
        const plan = planAppend({ command: req.command, sequence: first.event.sequence, appendedAt: req.appendedAt, cursorsOnTarget: before });
        expect([...first.notices].sort(byWatcher)).toEqual([...plan.notices].sort(byWatcher));
        const written = new Map(plan.cursorWrites.map((row) => [pairOf(row), row]));
        expect(await store.listCursors()).toEqual(before.map((row) => written.get(pairOf(row)) ?? row));

        const actor = watchers[0] as SessionKey;
        const second = await append(store, B, foreign(actor), T0 + 2);
        expect(second.notices.map((notice) => notice.watcher)).toEqual(watchers.slice(1));
        expect(second.notices.every((notice) => notice.reason === 'repeat' && notice.notified === first.event.sequence)).toBe(true);
        const moved = (await store.listCursors()).map((row) => [row.watcher, row.notified, row.material, row.touchedAt]);
        expect(moved).toEqual(watchers.map((watcher) => (watcher === actor ? [watcher, first.event.sequence, first.event.sequence, T0 + 1] : [watcher, first.event.sequence, second.event.sequence, T0 + 2])));
        // One notice_raised per watcher; raising material journals nothing.
        expect((await store.readCursorJournal({ target: B })).filter((entry) => entry.event.type !== 'watch_started').map((entry) => [entry.watcher, entry.event.type])).toEqual(
          watchers.map((watcher) => [watcher, 'notice_raised']),
        );
      }, PROPERTY_TIMEOUT_MS);

      test('the watcher’s own events and log-only events move nothing', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const before = await store.listCursors();
        const own = await append(store, B, { kind: 'goal_changed', actorType: 'agent', actorSessionKey: A }, T0 + 1);
        const logOnly = await append(store, B, { kind: 'run_completed', actorType: 'system' }, T0 + 2);
        expect([own.notices, logOnly.notices]).toEqual([[], []]);
        expect(await store.listCursors()).toEqual(before);
      });

      test('a spawn edge seeds the parent’s cursor at the event, overwriting a pending one, with no notice for it', async () => {
        await store.watch({ watcher: A, target: CHILD, now: T0 });
        await append(store, CHILD, foreign(), T0 + 1);
        expect((await cursorOf(store, A, CHILD))?.material).toBeGreaterThan(0);
        const spawn = await append(store, CHILD, { kind: 'child_spawned', actorType: 'agent', actorSessionKey: A }, T0 + 2, A);
        expect(spawn.notices.filter((notice) => notice.watcher === A)).toEqual([]);
        const s = spawn.event.sequence;
        expect(await cursorOf(store, A, CHILD)).toEqual({ watcher: A, target: CHILD, acked: s, notified: s, material: s, touchedAt: T0 + 2 });
      });

      test('watch creates the cursor at the target’s current head and keeps an existing cursor as it is', async () => {
        const events = await appendMany(store, B, 3);
        const head = (events[2] as StoredEvent).sequence;
        expect(await store.watch({ watcher: A, target: B, now: T0 + 1 })).toEqual({ created: true });
        expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: head, notified: head, material: head, touchedAt: T0 + 1 });
        await append(store, B, foreign(), T0 + 2);
        const pending = await cursorOf(store, A, B);
        expect(await store.watch({ watcher: A, target: B, now: T0 + 3 })).toEqual({ created: false });
        expect(await cursorOf(store, A, B)).toEqual(pending);
      });

      test('watching a session with no events starts at 0', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: 0, notified: 0, material: 0 });
      });

      test('listCursors filters by watcher, target or both, ordered by watcher then target', async () => {
        for (const [watcher, target] of [[C, B], [A, C], [A, B], [B, A]] as const) await store.watch({ watcher, target, now: T0 });
        const pairs = (rows: readonly CursorRow[]) => rows.map(pairOf);
        expect(pairs(await store.listCursors())).toEqual([`${A} -> ${B}`, `${A} -> ${C}`, `${B} -> ${A}`, `${C} -> ${B}`]);
        expect(pairs(await store.listCursors({}))).toEqual(pairs(await store.listCursors()));
        expect(pairs(await store.listCursors({ watcher: A }))).toEqual([`${A} -> ${B}`, `${A} -> ${C}`]);
        expect(pairs(await store.listCursors({ target: B }))).toEqual([`${A} -> ${B}`, `${C} -> ${B}`]);
        expect(pairs(await store.listCursors({ watcher: C, target: B }))).toEqual([`${C} -> ${B}`]);
        expect(await store.listCursors({ watcher: D })).toEqual([]);
      });
    });

    // --- drain ---------------------------------------------------------------------------------

    describe('drain', () => {
      test('acking the pending notice makes the cursor idle at notified and touches it', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const change = await append(store, B, foreign(), T0 + 1);
        const notified = change.event.sequence;
        expect(await store.drain(A, [{ target: B, notified }], T0 + 2)).toEqual([{ target: B, result: 'acked', acked: notified }]);
        expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: notified, notified, material: notified, touchedAt: T0 + 2 });
      });

      test('acking while newer material exists reopens exactly one notice with the new acked', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const first = await append(store, B, foreign(), T0 + 1);
        const later = await append(store, B, foreign(), T0 + 2);
        const [outcome] = await store.drain(A, [{ target: B, notified: first.event.sequence }], T0 + 3);
        expect(outcome).toEqual({
          target: B,
          result: 'acked',
          acked: first.event.sequence,
          reopened: { watcher: A, target: B, acked: first.event.sequence, notified: later.event.sequence, text: noticeText(B, first.event.sequence), reason: 'reopen' },
        });
        expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: first.event.sequence, notified: later.event.sequence, material: later.event.sequence });
      });

      test('a stale compare-and-swap acknowledges nothing and re-offers what is pending', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const change = await append(store, B, foreign(), T0 + 1);
        const before = await cursorOf(store, A, B);
        const wrong = (change.event.sequence + 1) as StoredEvent['sequence'];
        const [outcome] = await store.drain(A, [{ target: B, notified: wrong }], T0 + 2);
        expect(outcome).toEqual({
          target: B,
          result: 'stale',
          pending: { watcher: A, target: B, acked: 0, notified: change.event.sequence, text: noticeText(B, 0 as StoredEvent['sequence']), reason: 'repeat' },
        });
        expect(await cursorOf(store, A, B)).toEqual(before);
      });

      test('acks for an idle cursor or a missing pair are stale with nothing pending; the others of the call still ack', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: A, target: C, now: T0 });
        const change = await append(store, C, foreign(D), T0 + 1);
        const outcomes = await store.drain(
          A,
          [
            { target: B, notified: 1 as StoredEvent['sequence'] },
            { target: D, notified: 1 as StoredEvent['sequence'] },
            { target: C, notified: change.event.sequence },
          ],
          T0 + 2,
        );
        expect(outcomes).toEqual([
          { target: B, result: 'stale' },
          { target: D, result: 'stale' },
          { target: C, result: 'acked', acked: change.event.sequence },
        ]);
      });
    });

    // --- the restart scan, held notices, reset, delete ---------------------------------------------

    describe('restartScan', () => {
      test('the restart scan returns one notice per lagging pair, raises notified to material, and is idempotent', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        await store.watch({ watcher: D, target: A, now: T0 });
        const first = await append(store, B, foreign(D), T0 + 1);
        const second = await append(store, B, foreign(D), T0 + 2);
        const notices = [...(await store.restartScan(T0 + 3))].sort(byWatcher);
        const expected = (watcher: SessionKey): Notice => ({ watcher, target: B, acked: 0 as Notice['acked'], notified: second.event.sequence, text: noticeText(B, 0 as Notice['acked']), reason: 'recovered' });
        expect(first.event.sequence).toBeLessThan(second.event.sequence);
        expect(notices).toEqual([expected(A), expected(C)]);
        const cursors = await store.listCursors();
        expect(watermarks(cursors.find((row) => row.watcher === A))).toEqual({ acked: 0, notified: second.event.sequence, material: second.event.sequence });
        expect([...(await store.restartScan(T0 + 3))].sort(byWatcher)).toEqual(notices);
        expect(await store.listCursors()).toEqual(cursors);
      });

      test('the restart scan honours owns: only the owned watchers are scanned and changed', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        await append(store, B, foreign(D), T0 + 1);
        await append(store, B, foreign(D), T0 + 2);
        const unowned = await cursorOf(store, C, B);
        const notices = await store.restartScan(T0 + 3, (watcher) => watcher === A);
        expect(notices.map((notice) => notice.watcher)).toEqual([A]);
        expect(await cursorOf(store, C, B)).toEqual(unowned);
      });

      test(
        'a restart scan in pages, with cursors unwatched and targets changed between its pages, recovers every pending pair at most once and in pair order, each untouched one exactly once, and resurrects no unwatched cursor; a scan after it gives the one-pass result',
        async () => {
          const watchers = Array.from({ length: SCAN_WATCHERS }, (_, i) => key(`agent:w${String(i).padStart(5, '0')}:main`));
          for (const watcher of watchers) for (const target of [B, C]) await store.watch({ watcher, target, now: T0 });
          // Two changes on each target: every cursor lags (notified below material).
          for (const target of [B, C]) for (const at of [T0 + 1, T0 + 2]) await append(store, target, foreign(E), at);
          const materialOnB = (await headOf(store, B)).head;

          // While the scan runs, every turn of the event loop unwatches a pair (B's and C's in
          // turn, from the far end of the pair order); C changes again part way through.
          let scanning = true;
          const unwatched = new Set<string>();
          const changes = (async () => {
            for (let turn = 0; scanning; turn += 1) {
              await new Promise<void>((resolve) => setImmediate(resolve));
              const watcher = watchers[SCAN_WATCHERS - 1 - (turn >> 1)];
              const target = turn % 2 === 0 ? B : C;
              if (watcher === undefined) continue;
              if ((await store.unwatch(watcher, target, T0 + 4)).removed) unwatched.add(`${watcher} -> ${target}`);
              if (turn === 6) await append(store, C, foreign(E), T0 + 4);
            }
          })();
          const notices = await store.restartScan(T0 + 3);
          scanning = false;
          await changes;

          const pairs = notices.map((notice) => `${notice.watcher} -> ${notice.target}`);
          expect(new Set(pairs).size).toBe(pairs.length);
          expect([...notices].sort(comparePairs)).toEqual(notices);
          const untouched = watchers.flatMap((watcher) => [B, C].map((target) => `${watcher} -> ${target}`)).filter((pair) => !unwatched.has(pair));
          expect(untouched.filter((pair) => !pairs.includes(pair))).toEqual([]);
          const rows = await store.listCursors();
          expect(rows.map(pairOf).filter((pair) => unwatched.has(pair))).toEqual([]);
          const onB = rows.filter((row) => row.target === B);
          expect(onB.filter((row) => row.notified !== materialOnB || row.material !== materialOnB)).toEqual([]);
          expect(notices.filter((notice) => notice.target === B && notice.notified !== materialOnB)).toEqual([]);

          // Nothing changes during this one: one notice per pending cursor, in pair order, at material.
          const again = await store.restartScan(T0 + 5);
          const pending = rows.filter((row) => row.material > row.acked).sort(comparePairs);
          expect(again.map((notice) => [notice.watcher, notice.target, notice.notified, notice.reason])).toEqual(pending.map((row) => [row.watcher, row.target, row.material, 'recovered']));
          const kept = (notice: Notice): boolean => notice.target === B && !unwatched.has(`${notice.watcher} -> ${notice.target}`);
          expect(again.filter(kept)).toEqual(notices.filter(kept));
        },
        PROPERTY_TIMEOUT_MS,
      );

    });

    // --- pendingNotices: the owner's re-read after a cross-process signal -------------------

    describe('pendingNotices', () => {
      /** A and D watch B and C; E changes B twice and C once: four pending pairs, B's lagging past its notice. */
      async function fourPendingPairs() {
        for (const [watcher, target] of [[A, B], [A, C], [D, B], [D, C]] as const) await store.watch({ watcher, target, now: T0 });
        const firstOnB = await append(store, B, foreign(E), T0 + 1);
        const laterOnB = await append(store, B, foreign(E), T0 + 2);
        const onC = await append(store, C, foreign(E), T0 + 2);
        const held = (watcher: SessionKey, target: SessionKey, notified: Notice['notified']): Notice => ({
          watcher,
          target,
          acked: 0 as Notice['acked'],
          notified,
          text: noticeText(target, 0 as Notice['acked']),
          reason: 'signalled',
        });
        return { firstOnB: firstOnB.event.sequence, laterOnB: laterOnB.event.sequence, onC: onC.event.sequence, held };
      }

      test('returns the notice each pending cursor on the targets holds, at its FROZEN notified (the first foreign event, not material), reason signalled', async () => {
        const { firstOnB, laterOnB, held } = await fourPendingPairs();
        expect(firstOnB).toBeLessThan(laterOnB);
        expect(await store.pendingNotices(undefined, [B])).toEqual([held(A, B, firstOnB), held(D, B, firstOnB)]);
        // The notice the append queued, byte for byte, with the watermark its drain acknowledges.
        const appended = await append(store, B, foreign(E), T0 + 3);
        expect(appended.notices).toEqual([
          { ...held(A, B, firstOnB), reason: 'repeat' },
          { ...held(D, B, firstOnB), reason: 'repeat' },
        ]);
      });

      test('without targets it returns every pending cursor’s notice, ordered by watcher then target; idle cursors hold none', async () => {
        const { firstOnB, onC, held } = await fourPendingPairs();
        await store.watch({ watcher: B, target: E, now: T0 });
        expect(await store.pendingNotices()).toEqual([held(A, B, firstOnB), held(A, C, onC), held(D, B, firstOnB), held(D, C, onC)]);
      });

      test('countPendingCursors counts exactly the cursors listCursors shows pending (material > acked); idle ones and acknowledged ones are not counted', async () => {
        const { onC } = await fourPendingPairs();
        await store.watch({ watcher: B, target: E, now: T0 });
        const pendingListed = async (): Promise<number> => (await store.listCursors()).filter((row) => fromWatermarks(row).status === 'pending').length;
        expect(store.countPendingCursors).toBeDefined();
        expect(await pendingListed()).toBe(4);
        expect(await store.countPendingCursors?.()).toBe(4);
        await store.drain(A, [{ target: C, notified: onC }], T0 + 3);
        expect(await pendingListed()).toBe(3);
        expect(await store.countPendingCursors?.()).toBe(3);
      });

      test('with owns it reads only the owned watchers’ cursors, on the targets when given', async () => {
        const { firstOnB, onC, held } = await fourPendingPairs();
        expect(await store.pendingNotices((watcher) => watcher === D, [B, C])).toEqual([held(D, B, firstOnB), held(D, C, onC)]);
        expect(await store.pendingNotices((watcher) => watcher === A, [C])).toEqual([held(A, C, onC)]);
        expect(await store.pendingNotices((watcher) => watcher === A)).toEqual([held(A, B, firstOnB), held(A, C, onC)]);
        expect(await store.pendingNotices(() => false)).toEqual([]);
      });

      test('duplicate targets are harmless: each pair is returned once', async () => {
        const { firstOnB, onC, held } = await fourPendingPairs();
        expect(await store.pendingNotices(undefined, [C, B, C, B, B])).toEqual([held(A, B, firstOnB), held(A, C, onC), held(D, B, firstOnB), held(D, C, onC)]);
      });

      test('an empty targets list, or targets with no pending cursor, returns nothing', async () => {
        await fourPendingPairs();
        await store.watch({ watcher: B, target: E, now: T0 });
        expect(await store.pendingNotices(undefined, [])).toEqual([]);
        expect(await store.pendingNotices(() => true, [])).toEqual([]);
        expect(await store.pendingNotices(undefined, [E, A, key('agent:nobody:main')])).toEqual([]);
      });

      test('orders notices by watcher then target, whatever the order of the targets and however many there are', async () => {
        // 1200 targets, most without cursors, so an adapter that splits long target lists still
        // meets the pending ones in different parts and must order the whole answer.
        const targets = Array.from({ length: 1200 }, (_, i) => key(`agent:t${i}:main`));
        const pendingTargets = [targets[1199], targets[0], targets[650]] as SessionKey[];
        for (const target of pendingTargets) {
          for (const watcher of [D, A]) await store.watch({ watcher, target, now: T0 });
        }
        const sequences = new Map<SessionKey, Notice['notified']>();
        for (const target of pendingTargets) sequences.set(target, (await append(store, target, foreign(E), T0 + 1)).event.sequence);
        // A later change on each: the notices still cover the first one.
        for (const target of pendingTargets) await append(store, target, foreign(E), T0 + 2);
        const notices = await store.pendingNotices(undefined, [...targets].reverse());
        const expected = [A, D].flatMap((watcher) => [...pendingTargets].sort().map((target) => `${watcher} -> ${target} @${sequences.get(target)}`));
        expect(notices.map((notice) => `${notice.watcher} -> ${notice.target} @${notice.notified}`)).toEqual(expected);
        expect(notices.every((notice) => notice.reason === 'signalled')).toBe(true);
      });

      test('writes and touches nothing: cursors are byte-identical afterwards (touchedAt included), and a later restart scan still raises notified as before', async () => {
        const { firstOnB, laterOnB, onC, held } = await fourPendingPairs();
        const before = await store.listCursors();
        expect(await store.pendingNotices()).toEqual([held(A, B, firstOnB), held(A, C, onC), held(D, B, firstOnB), held(D, C, onC)]);
        await store.pendingNotices(undefined, [B, C]);
        await store.pendingNotices((watcher) => watcher === A, [B]);
        expect(await store.pendingNotices(undefined, [B])).toEqual([held(A, B, firstOnB), held(D, B, firstOnB)]);
        expect(await store.listCursors()).toEqual(before);

        // The restart scan is unchanged by any number of re-reads before it.
        const recovered = (watcher: SessionKey, target: SessionKey, notified: Notice['notified']): Notice => ({ ...held(watcher, target, notified), reason: 'recovered' });
        expect(await store.restartScan(T0 + 5)).toEqual([recovered(A, B, laterOnB), recovered(A, C, onC), recovered(D, B, laterOnB), recovered(D, C, onC)]);
        const after = await store.listCursors();
        // B's cursors were raised to material and touched; C's (notified = material already) were not written.
        expect(after.filter((row) => row.target === B).map((row) => [pairOf(row), watermarks(row), row.touchedAt])).toEqual([
          [`${A} -> ${B}`, { acked: 0, notified: laterOnB, material: laterOnB }, T0 + 5],
          [`${D} -> ${B}`, { acked: 0, notified: laterOnB, material: laterOnB }, T0 + 5],
        ]);
        expect(after.filter((row) => row.target === C)).toEqual(before.filter((row) => row.target === C));
        // After the scan the held notice is the recovered one.
        expect(await store.pendingNotices(undefined, [B])).toEqual([held(A, B, laterOnB), held(D, B, laterOnB)]);
      });

      test('draining the held notice acknowledges only up to its notified and reopens once for the rest', async () => {
        const { firstOnB, laterOnB } = await fourPendingPairs();
        const [notice] = await store.pendingNotices((watcher) => watcher === A, [B]);
        expect(notice?.notified).toBe(firstOnB);
        const [outcome] = await store.drain(A, [{ target: B, notified: notice?.notified ?? firstOnB }], T0 + 3);
        expect(outcome).toMatchObject({ target: B, result: 'acked', acked: firstOnB, reopened: { acked: firstOnB, notified: laterOnB, reason: 'reopen' } });
      });

      test('after a drain’s reopen it returns the reopened notice’s watermark (still frozen when more changes follow)', async () => {
        const { firstOnB, laterOnB } = await fourPendingPairs();
        const [outcome] = await store.drain(A, [{ target: B, notified: firstOnB }], T0 + 3);
        if (outcome?.result !== 'acked' || outcome.reopened === undefined) throw new Error(`expected a reopen, got ${JSON.stringify(outcome)}`);
        const reopened = outcome.reopened;
        expect(reopened.notified).toBe(laterOnB);
        expect(await store.pendingNotices((watcher) => watcher === A, [B])).toEqual([{ ...reopened, reason: 'signalled' }]);
        await append(store, B, foreign(E), T0 + 4);
        expect(await store.pendingNotices((watcher) => watcher === A, [B])).toEqual([
          { watcher: A, target: B, acked: firstOnB, notified: laterOnB, text: noticeText(B, firstOnB), reason: 'signalled' },
        ]);
      });
    });

    describe('resetWatcher and deleteSession', () => {
      test('resetWatcher removes exactly the watcher’s cursors and returns their pairs', async () => {
        for (const [watcher, target] of [[A, B], [A, C], [D, A], [C, B]] as const) await store.watch({ watcher, target, now: T0 });
        const removed = await store.resetWatcher(A, T0);
        expect([...removed].sort((x, y) => (x.target < y.target ? -1 : 1))).toEqual([{ watcher: A, target: B }, { watcher: A, target: C }]);
        expect((await store.listCursors()).map(pairOf)).toEqual([`${C} -> ${B}`, `${D} -> ${A}`]);
        expect(await store.resetWatcher(A, T0)).toEqual([]);
      });

      test('deleteSession removes the session’s events and every cursor where it is watcher or target', async () => {
        for (const [watcher, target] of [[A, B], [B, C], [C, D], [D, B]] as const) await store.watch({ watcher, target, now: T0 });
        await appendMany(store, B, 3);
        const other = await appendMany(store, C, 2);
        const result = await store.deleteSession(B, T0);
        expect(result.eventsDeleted).toBe(3);
        const pairs = result.removedCursors.map((pair) => `${pair.watcher} -> ${pair.target}`).sort();
        expect(pairs).toEqual([`${A} -> ${B}`, `${B} -> ${C}`, `${D} -> ${B}`].sort());
        expect((await store.listCursors()).map(pairOf)).toEqual([`${C} -> ${D}`]);
        expect(await readAll(store, C)).toEqual(other);
      });

      test('deleting a session that never logged anything removes its cursors and creates no head', async () => {
        await store.watch({ watcher: B, target: A, now: T0 });
        const result = await store.deleteSession(B, T0);
        expect(result).toEqual({ eventsDeleted: 0, removedCursors: [{ watcher: B, target: A }] });
        expect(await store.readHeads([B])).toEqual([]);
      });
    });

    describe('unwatch (issue 15)', () => {
      test('removes exactly the pair’s cursor, pending or not, and says whether it had one; a later watch starts at the head then', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: A, target: C, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        await append(store, B, foreign(D), T0 + 1);
        expect(await store.unwatch(A, B, T0 + 2)).toEqual({ removed: true });
        expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${C}`, `${C} -> ${B}`]);
        expect(await store.pendingNotices((watcher) => watcher === A)).toEqual([]);
        expect(await store.unwatch(A, B, T0 + 3)).toEqual({ removed: false });
        expect(await store.unwatch(D, E, T0 + 3)).toEqual({ removed: false });
        const head = (await append(store, B, foreign(D), T0 + 4)).event.sequence;
        expect(await store.watch({ watcher: A, target: B, now: T0 + 5 })).toEqual({ created: true });
        expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: head, notified: head, material: head });
      });

      test('a spawn edge can be unwatched; it journals watch_ended unwatched, and nothing when the pair had no cursor', async () => {
        const spawned = (await append(store, CHILD, { kind: 'child_spawned', actorType: 'agent', actorSessionKey: A }, T0, A)).event.sequence;
        const change = (await append(store, CHILD, foreign(), T0 + 1)).event.sequence;
        expect(await journalDuring(store, () => store.unwatch(A, CHILD, T0 + 2))).toEqual([
          { pair: `${A} -> ${CHILD}`, event: { type: 'watch_ended', reason: 'unwatched' }, after: [spawned, change, change], at: T0 + 2 },
        ]);
        expect(await journalDuring(store, () => store.unwatch(A, CHILD, T0 + 3))).toEqual([]);
        expect(await store.listCursors()).toEqual([]);
      });

      test('refuses a malformed key without touching anything', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await expect(store.unwatch('agent:\uD83D:main' as SessionKey, B, T0)).rejects.toMatchObject({ _tag: 'StoreError', operation: 'unwatch' });
        expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${B}`]);
      });
    });

    describe('acknowledgeRead (issue 15)', () => {
      test('a read from acked to the head acknowledges the pending cursor up to the head: idle, touched, notice_read journalled', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await append(store, B, foreign(), T0 + 1);
        const head = (await append(store, B, foreign(), T0 + 2)).event.sequence;
        const journal = await journalDuring(store, async () => {
          expect(await store.acknowledgeRead({ watcher: A, target: B, since: seqOf(0), through: head, now: T0 + 3 })).toEqual({ acknowledged: true, acked: head });
        });
        expect(journal).toEqual([{ pair: `${A} -> ${B}`, event: { type: 'notice_read', acked: head, notified: head }, after: [head, head, head], at: T0 + 3 }]);
        expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: head, notified: head, material: head, touchedAt: T0 + 3 });
        expect(await store.pendingNotices()).toEqual([]);
      });

      test('a change after the read keeps one notice: acked = the head read, the reopened notice covers the rest', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const read = (await append(store, B, foreign(), T0 + 1)).event.sequence;
        const after = (await append(store, B, foreign(), T0 + 2)).event.sequence;
        expect(await store.acknowledgeRead({ watcher: A, target: B, since: seqOf(0), through: read, now: T0 + 3 })).toEqual({
          acknowledged: true,
          acked: read,
          reopened: { watcher: A, target: B, acked: read, notified: after, text: noticeText(B, read), reason: 'reopen' },
        });
        expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: read, notified: after, material: after });
      });

      test('a read from above acked, one ending at or below acked, or of a pair without a cursor acknowledges and journals nothing', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const first = (await append(store, B, foreign(), T0 + 1)).event.sequence;
        const head = (await append(store, B, foreign(), T0 + 2)).event.sequence;
        const before = await cursorOf(store, A, B);
        const none = await journalDuring(store, async () => {
          expect(await store.acknowledgeRead({ watcher: A, target: B, since: first, through: head, now: T0 + 3 })).toEqual({ acknowledged: false });
          expect(await store.acknowledgeRead({ watcher: A, target: B, since: seqOf(0), through: seqOf(0), now: T0 + 3 })).toEqual({ acknowledged: false });
          expect(await store.acknowledgeRead({ watcher: C, target: B, since: seqOf(0), through: head, now: T0 + 3 })).toEqual({ acknowledged: false });
        });
        expect(none).toEqual([]);
        expect(await cursorOf(store, A, B)).toEqual(before);
        expect(await cursorOf(store, C, B)).toBeUndefined();
      });
    });

    // --- retention ---------------------------------------------------------------------------

    describe('prune', () => {
      test('age pruning deletes events appended before now - maxAgeMs and raises the watermark to the highest deleted', async () => {
        const old1 = await append(store, B, {}, T0);
        const old2 = await append(store, B, {}, T0 + 10 * MINUTE);
        const fresh = await append(store, B, {}, T0 + 20 * MINUTE);
        const result = await pruneAll(store, T0 + 25 * MINUTE, 10 * MINUTE, 1000);
        expect(result.eventsDeleted).toBe(2);
        expect(await readAll(store, B)).toEqual([fresh.event]);
        expect(await headOf(store, B)).toEqual({ head: fresh.event.sequence, pruneWatermark: old2.event.sequence });
        expect(old1.event.sequence).toBeLessThan(old2.event.sequence);
      });

      test('an event exactly maxAgeMs old is kept', async () => {
        const event = await append(store, B, {}, T0);
        expect((await pruneAll(store, T0 + 10 * MINUTE, 10 * MINUTE, 1000)).eventsDeleted).toBe(0);
        expect(await readAll(store, B)).toEqual([event.event]);
      });

      test('row-count pruning deletes the earliest-appended events across all sessions', async () => {
        const outcomes = await store.append([request(B), request(C), request(B), request(C), request(B)]);
        const events = outcomes.map((outcome) => expectAppended(outcome).event);
        const result = await pruneAll(store, T0, DAY, 2);
        expect(result.eventsDeleted).toBe(3);
        const kept = [...(await readAll(store, B)), ...(await readAll(store, C))].sort((x, y) => x.sequence - y.sequence);
        expect(kept).toEqual(events.slice(3));
        expect((await headOf(store, B)).pruneWatermark).toBe(events[2]?.sequence);
        expect((await headOf(store, C)).pruneWatermark).toBe(events[1]?.sequence);
      });

      test('a clock moving backwards never prunes fresh rows and never lowers a watermark', async () => {
        const early = await append(store, B, {}, T0);
        const fresh = await append(store, B, {}, T0 + 2 * DAY);
        await pruneAll(store, T0 + 2 * DAY, DAY, 1000);
        const afterForward = await headOf(store, B);
        expect(afterForward.pruneWatermark).toBe(early.event.sequence);

        // The clock jumps back: an append stamped earlier than a retained one, then prunes at the earlier time.
        const stampedBack = await append(store, B, {}, T0 + DAY + MINUTE);
        expect((await pruneAll(store, T0 + DAY, DAY, 1000)).eventsDeleted).toBe(0);
        expect(await readAll(store, B)).toEqual([fresh.event, stampedBack.event]);
        expect(await headOf(store, B)).toEqual({ head: stampedBack.event.sequence, pruneWatermark: afterForward.pruneWatermark });

        // Forward again: only the event older than the cutoff goes, even though its sequence is higher.
        await pruneAll(store, T0 + 2 * DAY + 2 * MINUTE, DAY, 1000);
        expect(await readAll(store, B)).toEqual([fresh.event]);
        expect((await headOf(store, B)).pruneWatermark).toBe(stampedBack.event.sequence);
        const page = await store.readChanges(B, early.event.sequence, 200);
        expect(historyGap(page.head, early.event.sequence)).toBe(true);

        // The row cap now removes the lower-sequence survivor: the watermark must not fall to it.
        await pruneAll(store, T0 + 2 * DAY + 2 * MINUTE, DAY, 0);
        expect(await readAll(store, B)).toEqual([]);
        expect(await headOf(store, B)).toEqual({ head: stampedBack.event.sequence, pruneWatermark: stampedBack.event.sequence });
      });

      test('each call deletes at most batchSize events and done ends the loop when nothing is left', async () => {
        await appendMany(store, B, 25, T0);
        const first = await store.prune({ now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 10 });
        expect(first).toMatchObject({ eventsDeleted: 10, done: false });
        const rest = await pruneAll(store, T0, DAY, 0, 10);
        expect(rest.eventsDeleted).toBe(15);
        expect(rest.calls).toBeGreaterThanOrEqual(2);
        expect(await store.prune({ now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 10 })).toMatchObject({ eventsDeleted: 0, expiredCursors: [], done: true });
      });

      test('bounded batches apply to age pruning too', async () => {
        await appendMany(store, B, 7, T0);
        const first = await store.prune({ now: T0 + 2 * DAY, maxAgeMs: DAY, maxRows: 1000, batchSize: 3 });
        expect(first).toMatchObject({ eventsDeleted: 3, done: false });
        const rest = await pruneAll(store, T0 + 2 * DAY, DAY, 1000, 3);
        expect(rest.eventsDeleted).toBe(4);
        expect(await readAll(store, B)).toEqual([]);
      });

      test('cursors not touched within maxAgeMs expire and are returned; touched ones stay', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        await store.watch({ watcher: D, target: B, now: T0 + 50 * MINUTE });
        // A foreign change touches both cursors on B except the one whose watcher caused it.
        await append(store, B, foreign(C), T0 + 40 * MINUTE);
        const result = await pruneAll(store, T0 + 60 * MINUTE, 30 * MINUTE, 1000);
        expect(result.expired).toEqual([`${C} -> ${B}`]);
        expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${B}`, `${D} -> ${B}`]);
      });

      test('previewPrune counts what prune to completion then deletes and expires, and writes nothing', async () => {
        if (store.previewPrune === undefined) throw new Error('every store of the suite offers previewPrune');
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 + 50 * MINUTE });
        for (const at of [T0, T0 + 10 * MINUTE, T0 + 40 * MINUTE, T0 + 45 * MINUTE, T0 + 50 * MINUTE]) await append(store, D, foreign(), at);
        const request = { now: T0 + 60 * MINUTE, maxAgeMs: 30 * MINUTE, cursorMaxAgeMs: 20 * MINUTE, maxRows: 2, batchSize: 2 };
        const heads = await store.readHeads();
        const cursors = await store.listCursors();
        // Two aged events, then one of the three fresh ones beyond the 2-row cap; A's cursor is idle.
        expect(await store.previewPrune(request)).toEqual({ eventsToDelete: 3, cursorsToExpire: 1 });
        expect(await store.readHeads()).toEqual(heads);
        expect(await store.listCursors()).toEqual(cursors);
        let eventsDeleted = 0;
        let cursorsExpired = 0;
        let journalAfter: number | undefined;
        for (;;) {
          const batch = await store.prune({ ...request, ...(journalAfter !== undefined ? { journalAfter } : {}) });
          journalAfter = batch.journalAfter;
          eventsDeleted += batch.eventsDeleted;
          cursorsExpired += batch.expiredCursors.length;
          if (batch.done) break;
        }
        expect({ eventsDeleted, cursorsExpired }).toEqual({ eventsDeleted: 3, cursorsExpired: 1 });
        expect(await store.previewPrune(request)).toEqual({ eventsToDelete: 0, cursorsToExpire: 0 });
      });

      test('a cursor a prune left expires in a later prune once idle beyond the limit, with no write between them', async () => {
        await store.watch({ watcher: C, target: D, now: T0 });
        await store.watch({ watcher: A, target: B, now: T0 + 20 * MINUTE });
        expect((await pruneAll(store, T0 + 35 * MINUTE, 30 * MINUTE, 1000)).expired).toEqual([`${C} -> ${D}`]);
        expect((await pruneAll(store, T0 + 55 * MINUTE, 30 * MINUTE, 1000)).expired).toEqual([`${A} -> ${B}`]);
      });

      test('cursorMaxAgeMs governs cursors alone: a pending cursor older than maxAgeMs but within it stays while its events go', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await append(store, B, foreign(), T0 + 10 * MINUTE); // A's cursor is pending, touched at +10
        const prune = (cursorMaxAgeMs: number) => store.prune({ now: T0 + 60 * MINUTE, maxAgeMs: 30 * MINUTE, cursorMaxAgeMs, maxRows: 1000, batchSize: 1000 });
        expect(await prune(2 * 60 * MINUTE)).toMatchObject({ eventsDeleted: 1, expiredCursors: [], done: true });
        expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${B}`]);
        // Its own, shorter limit expires it (events and cursors age apart).
        expect(await prune(40 * MINUTE)).toMatchObject({ eventsDeleted: 0, expiredCursors: [{ watcher: A, target: B }], done: true });
        expect(await store.listCursors()).toEqual([]);
      });
    });

    // --- clock readings ---------------------------------------------------------------------

    // The clock port may answer with a fraction of a millisecond (performance.timeOrigin +
    // performance.now()). Every store keeps and compares clock readings as whole milliseconds,
    // the reading floored, so such a clock behaves the same on every store.
    describe('fractional clock readings', () => {
      const frac = (ms: number): number => ms + 0.75;

      test('an append at a fractional time is stored, returned and read back at the floored millisecond', async () => {
        await store.watch({ watcher: A, target: B, now: frac(T0) });
        const outcomes = await store.append([request(B, foreign(), frac(T0 + 1)), request(CHILD, {}, frac(T0 + 2), A)]);
        const [change, spawned] = outcomes.map(expectAppended);
        expect(change?.event).toMatchObject({ appendedAt: T0 + 1, occurredAt: new Date(T0 + 1).toISOString() });
        expect(spawned?.event.appendedAt).toBe(T0 + 2);
        expect(await readAll(store, B)).toEqual([change?.event]);
        expect(await readAll(store, CHILD)).toEqual([spawned?.event]);
        // The watch, the append's cursor move and the spawn edge's seed touch at whole milliseconds.
        expect((await store.listCursors()).map((row) => [pairOf(row), row.touchedAt])).toEqual([
          [`${A} -> ${CHILD}`, T0 + 2],
          [`${A} -> ${B}`, T0 + 1],
        ]);
      });

      test('drain and recover at a fractional now touch cursors at the floored millisecond', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        const change = await append(store, B, foreign(D), T0 + 1);
        await append(store, B, foreign(D), T0 + 2);
        expect(await store.drain(A, [{ target: B, notified: change.event.sequence }], frac(T0 + 3))).toMatchObject([{ target: B, result: 'acked' }]);
        expect((await cursorOf(store, A, B))?.touchedAt).toBe(T0 + 3);
        // C's cursor is the one the restart scan moves (its notified rises to the newer material).
        expect((await store.restartScan(frac(T0 + 4))).length).toBe(2);
        expect((await cursorOf(store, C, B))?.touchedAt).toBe(T0 + 4);
      });

      test('prune at a fractional now measures ages in whole milliseconds: exactly maxAgeMs old is kept', async () => {
        const event = await append(store, B, {}, T0 + 0.25);
        await store.watch({ watcher: A, target: B, now: T0 + 0.25 });
        // floor(now) - maxAgeMs = T0 = floor(T0 + 0.25): the event and the cursor are exactly maxAgeMs old.
        expect(await pruneAll(store, frac(T0 + 10 * MINUTE), 10 * MINUTE, 1000)).toMatchObject({ eventsDeleted: 0, expired: [] });
        expect(await readAll(store, B)).toEqual([event.event]);
        // One whole millisecond later both are older than maxAgeMs.
        expect(await pruneAll(store, frac(T0 + 10 * MINUTE + 1), 10 * MINUTE, 1000)).toMatchObject({ eventsDeleted: 1, expired: [`${A} -> ${B}`] });
        expect(await readAll(store, B)).toEqual([]);
      });
    });

    // --- durability and closing --------------------------------------------------------------

    describe('reopen and close', () => {
      test('a reopened store (the same one, when not durable) sees exactly what was committed', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: D, now: T0 });
        await append(store, B, { ...foreign(), payload: { channel: 'telegram' }, dedupeKey: 'd1' }, T0 + 1);
        await append(store, B, foreign(), T0 + 2);
        await appendMany(store, C, 3, T0 + 3);
        await appendMany(store, D, 2, T0 + 4);
        await pruneAll(store, T0 + 4, DAY, 5);
        await store.deleteSession(D, T0);
        await append(store, C, { dedupeKey: 'kept' }, T0 + 5);
        const snapshot = async (s: StateStore) => ({
          heads: [...(await s.readHeads([A, B, C, D]))].sort((x, y) => (x.sessionKey < y.sessionKey ? -1 : 1)),
          events: [await readAll(s, B), await readAll(s, C), await readAll(s, D)],
          cursors: await s.listCursors(),
        });
        const before = await snapshot(store);
        const after = await reopened();
        expect(await snapshot(after)).toEqual(before);

        // Sequences continue above every head, and dedupe keys still hold.
        const maxHead = Math.max(...before.heads.map((row) => row.head));
        const next = await append(after, D);
        expect(next.event.sequence).toBeGreaterThan(maxHead);
        const [dup] = await after.append([request(B, { dedupeKey: 'kept' })]);
        expect(dup?.type).toBe('duplicate');
        // The pruned event's key is free again after the reopen too.
        const [reused] = await after.append([request(B, { dedupeKey: 'd1' })]);
        expect(reused?.type).toBe('appended');
      });

      test('after close, methods reject with a StoreError naming the operation', async () => {
        await append(store, B);
        await store.close();
        open = false;
        const read = store.readHeads([B]).then(
          () => undefined,
          (error: unknown) => error,
        );
        const rejected = await read;
        expect(isStoreError(rejected) && rejected.operation).toBe('readHeads');
        const appendError = await store.append([request(B)]).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isStoreError(appendError) && appendError.operation).toBe('append');
        const pendingError = await store.pendingNotices().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isStoreError(pendingError) && pendingError.operation).toBe('pendingNotices');
      });
    });

    // --- the cursor journal -------------------------------------------------------------------

    describe('cursor journal', () => {
      test('watch journals watch_started via watch at the target head; a repeated watch journals nothing', async () => {
        const events = await appendMany(store, B, 2);
        const head = (events[1] as StoredEvent).sequence;
        expect(await journalDuring(store, () => store.watch({ watcher: A, target: B, now: T0 + 1 }))).toEqual([
          { pair: `${A} -> ${B}`, event: started(head), after: [head, head, head], at: T0 + 1 },
        ]);
        expect(await journalDuring(store, () => store.watch({ watcher: A, target: B, now: T0 + 2 }))).toEqual([]);
      });

      test('a spawn edge journals watch_started via spawn; over an existing cursor the old watch ends as replaced first', async () => {
        const spawn = { kind: 'child_spawned' as const, actorType: 'agent' as const, actorSessionKey: A };
        let first = 0;
        expect(
          await journalDuring(store, async () => {
            first = (await append(store, CHILD, spawn, T0, A)).event.sequence;
          }),
        ).toEqual([{ pair: `${A} -> ${CHILD}`, event: started(first, 'spawn'), after: [first, first, first], at: T0 }]);
        const change = await append(store, CHILD, foreign(), T0 + 1);
        let second = 0;
        expect(
          await journalDuring(store, async () => {
            second = (await append(store, CHILD, spawn, T0 + 2, A)).event.sequence;
          }),
        ).toEqual([
          { pair: `${A} -> ${CHILD}`, event: { type: 'watch_ended', reason: 'replaced' }, after: [first, change.event.sequence, change.event.sequence], at: T0 + 2 },
          { pair: `${A} -> ${CHILD}`, event: started(second, 'spawn'), after: [second, second, second], at: T0 + 2 },
        ]);
      });

      test('a foreign change on an idle cursor journals one notice_raised; a burst while pending journals nothing more', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: B, now: T0 });
        let first = 0;
        const raised = await journalDuring(store, async () => {
          first = (await append(store, B, foreign(D), T0 + 1)).event.sequence;
        });
        const notice: CursorEvent = { type: 'notice_raised', acked: seqOf(0), notified: seqOf(first) };
        expect(raised).toEqual([
          { pair: `${A} -> ${B}`, event: notice, after: [0, first, first], at: T0 + 1 },
          { pair: `${C} -> ${B}`, event: notice, after: [0, first, first], at: T0 + 1 },
        ]);
        expect(
          await journalDuring(store, async () => {
            for (let i = 0; i < 5; i++) await append(store, B, foreign(D), T0 + 2 + i);
            await append(store, B, { kind: 'goal_changed', actorType: 'agent', actorSessionKey: A }, T0 + 8);
          }),
        ).toEqual([]);
      });

      test('drain journals notice_acknowledged, or notice_reopened when more arrived; a stale drain journals nothing', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const first = (await append(store, B, foreign(), T0 + 1)).event.sequence;
        const later = (await append(store, B, foreign(), T0 + 2)).event.sequence;
        expect(await journalDuring(store, () => store.drain(A, [{ target: B, notified: seqOf(later + 100) }], T0 + 3))).toEqual([]);
        expect(await journalDuring(store, () => store.drain(A, [{ target: B, notified: seqOf(first) }], T0 + 4))).toEqual([
          { pair: `${A} -> ${B}`, event: { type: 'notice_reopened', acked: first, notified: later }, after: [first, later, later], at: T0 + 4 },
        ]);
        expect(await journalDuring(store, () => store.drain(A, [{ target: B, notified: seqOf(later) }], T0 + 5))).toEqual([
          { pair: `${A} -> ${B}`, event: { type: 'notice_acknowledged', acked: later }, after: [later, later, later], at: T0 + 5 },
        ]);
      });

      test('the restart scan journals notice_recovered only where it raised notified; a second scan and held-notice reads journal nothing', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: A, target: C, now: T0 });
        const onB = (await append(store, B, foreign(), T0 + 1)).event.sequence;
        const laterOnB = (await append(store, B, foreign(), T0 + 2)).event.sequence;
        await append(store, C, foreign(), T0 + 3);
        expect(await journalDuring(store, () => store.pendingNotices())).toEqual([]);
        expect(await journalDuring(store, () => store.restartScan(T0 + 4))).toEqual([
          { pair: `${A} -> ${B}`, event: { type: 'notice_recovered', acked: 0, notified: laterOnB }, after: [0, laterOnB, laterOnB], at: T0 + 4 },
        ]);
        expect(onB).toBeLessThan(laterOnB);
        expect(await journalDuring(store, () => store.restartScan(T0 + 5))).toEqual([]);
      });

      test('removals end each removed watch with its reason: reset, deleted (as watcher or target), expired', async () => {
        for (const [watcher, target] of [[A, B], [A, C], [B, C], [C, D]] as const) await store.watch({ watcher, target, now: T0 });
        await store.watch({ watcher: D, target: E, now: T0 + 50 * MINUTE });
        const ended = (watcher: SessionKey, target: SessionKey, reason: string, at: number) => ({
          pair: `${watcher} -> ${target}`,
          event: { type: 'watch_ended', reason },
          after: [0, 0, 0],
          at,
        });
        expect(await journalDuring(store, () => store.resetWatcher(A, T0 + 1))).toEqual([ended(A, B, 'reset', T0 + 1), ended(A, C, 'reset', T0 + 1)]);
        expect(await journalDuring(store, () => store.deleteSession(C, T0 + 2))).toEqual([ended(B, C, 'deleted', T0 + 2), ended(C, D, 'deleted', T0 + 2)]);
        expect(await journalDuring(store, () => pruneAll(store, T0 + 60 * MINUTE, 30 * MINUTE, 1000))).toEqual([]);
        await store.watch({ watcher: E, target: D, now: T0 + 10 * MINUTE });
        expect(
          (await journalDuring(store, () => pruneAll(store, T0 + 90 * MINUTE, 30 * MINUTE, 1000))).filter((entry) => entry.event.type === 'watch_ended'),
        ).toEqual([ended(D, E, 'expired', T0 + 90 * MINUTE), ended(E, D, 'expired', T0 + 90 * MINUTE)]);
      });

      test('a prune that removes the change which set a pending cursor’s material journals material_kept, and replay still equals the row', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        const first = (await append(store, B, foreign(), T0 + 1)).event.sequence;
        const later = (await append(store, B, foreign(), T0 + 2)).event.sequence;
        await append(store, C, {}, T0 + 3);
        const kept = await journalDuring(store, () => pruneAll(store, T0 + 3, DAY, 1));
        expect(kept).toEqual([{ pair: `${A} -> ${B}`, event: { type: 'material_kept', material: later }, after: [0, first, later], at: T0 + 3 }]);
        expect(await readAll(store, B)).toEqual([]);
        const row = await cursorOf(store, A, B);
        if (row === undefined) throw new Error('the cursor is gone');
        expect(await replayMismatch(store, row)).toBeUndefined();
        // Pruned again: nothing new to keep.
        await append(store, C, {}, T0 + 4);
        expect(await journalDuring(store, () => pruneAll(store, T0 + 4, DAY, 1))).toEqual([]);
      });

      test('retention ages and caps the journal with the log but keeps the latest entry of every live pair', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await store.watch({ watcher: C, target: D, now: T0 });
        await store.watch({ watcher: E, target: D, now: T0 });
        await append(store, B, foreign(), T0 + MINUTE);
        await store.drain(A, [{ target: B, notified: (await store.pendingNotices())[0]?.notified ?? seqOf(0) }], T0 + 2 * MINUTE);
        await store.resetWatcher(C, T0 + 3 * MINUTE);
        // Cutoff +1 min: the watch starts go (A's pair keeps later entries), E -> D (touched at T0 only) expires.
        await pruneAll(store, T0 + 31 * MINUTE, 30 * MINUTE, 1000);
        const left = (await store.readCursorJournal()).map((entry) => `${entry.watcher} -> ${entry.target} ${entry.event.type}`);
        // Entries from the cutoff on stay, ended pairs' too.
        expect(left).toEqual([`${A} -> ${B} notice_raised`, `${A} -> ${B} notice_acknowledged`, `${C} -> ${D} watch_ended`, `${E} -> ${D} watch_ended`]);
        // The row cap: every entry of an ended pair goes, the live pair's latest stays.
        await pruneAll(store, T0 + 32 * MINUTE, DAY, 0);
        expect((await store.readCursorJournal()).map((entry) => `${entry.watcher} -> ${entry.target} ${entry.event.type}`)).toEqual([`${A} -> ${B} notice_acknowledged`]);
        const row = await cursorOf(store, A, B);
        if (row === undefined) throw new Error('the cursor is gone');
        expect(await replayMismatch(store, row)).toBeUndefined();
      });

      test('the journal row cap runs in bounded batches: done stays false while removable entries beyond the cap are left', async () => {
        // Three ended pairs: six removable entries, none old enough for the age limit.
        for (const target of [B, C, D]) {
          await store.watch({ watcher: A, target, now: T0 });
          await store.unwatch(A, target, T0 + 1);
        }
        expect(await store.readCursorJournal()).toHaveLength(6);
        const { calls } = await pruneAll(store, T0 + 2, DAY, 0, 1);
        expect(await store.readCursorJournal()).toEqual([]);
        expect(calls).toBeGreaterThanOrEqual(6);
      });

      // Journal retention walks the journal a window at a time: a batch examines at most batchSize
      // entries after where the run's previous batch stopped (PruneBatch.journalAfter).
      describe('journal retention in windows', () => {
        const watchers = Array.from({ length: 12 }, (_, i) => key(`agent:w${i}:main`));
        const layout = async (liveAt = T0): Promise<void> => {
          // Twelve live pairs, one entry each (kept: the latest entry of a live pair), then two
          // ended pairs whose four entries are removable, all after the kept ones.
          for (const watcher of watchers) await store.watch({ watcher, target: B, now: liveAt });
          for (const target of [C, D]) {
            await store.watch({ watcher: A, target, now: T0 + 1 });
            await store.unwatch(A, target, T0 + 2);
          }
        };
        const journalTypes = async () => (await store.readCursorJournal()).map((entry) => `${entry.watcher} -> ${entry.target} ${entry.event.type}`);
        const ended = [`${A} -> ${C} watch_started`, `${A} -> ${C} watch_ended`, `${A} -> ${D} watch_started`, `${A} -> ${D} watch_ended`];

        test('a journal over its cap with nothing removable: done in a bounded number of batches, nothing deleted', async () => {
          for (const watcher of watchers) await store.watch({ watcher, target: B, now: T0 });
          const before = await store.readCursorJournal();
          const { calls } = await pruneAll(store, T0 + 1, DAY, 0, 5);
          expect(await store.readCursorJournal()).toEqual(before);
          // One pass in windows of five: three windows, and at most one batch to see the end.
          expect(calls).toBeLessThanOrEqual(4);
        });

        test('a batch examines a window of batchSize entries: removable entries past it stay for the next batch', async () => {
          await layout();
          const first = await store.prune({ now: T0 + 3, maxAgeMs: DAY, maxRows: 0, batchSize: 5 });
          expect(first.done).toBe(false);
          expect(await store.readCursorJournal()).toHaveLength(watchers.length + 4);
        });

        test('removable entries after a long run of kept ones are still deleted within the run', async () => {
          await layout();
          await pruneAll(store, T0 + 3, DAY, 0, 5);
          expect(await journalTypes()).toEqual(watchers.map((watcher) => `${watcher} -> ${B} watch_started`));
        });

        test('the cap stays exact: only the lowest removable entries beyond maxRows go', async () => {
          await layout();
          await pruneAll(store, T0 + 3, DAY, watchers.length + 2, 5);
          expect((await journalTypes()).slice(watchers.length)).toEqual(ended.slice(2));
        });

        test('aged removable entries after a long run of kept ones go within the run', async () => {
          // Live pairs watched at T0 + 5, so their cursors outlive the age limit (cutoff T0 + 2),
          // which takes the ended pairs' starts (recorded at T0 + 1); the cap is far.
          await layout(T0 + 5);
          await pruneAll(store, T0 + 2 + DAY, DAY, 1000, 5);
          expect((await journalTypes()).slice(watchers.length)).toEqual([ended[1], ended[3]]);
        });

        test('journalAfter must be a non-negative safe integer', async () => {
          await expect(store.prune({ now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 5, journalAfter: -1 })).rejects.toMatchObject({ _tag: 'StoreError', message: expect.stringContaining('journalAfter') });
        });
      });

      test('readCursorJournal filters by watcher, target or both and orders by position', async () => {
        for (const [watcher, target] of [[C, B], [A, C], [A, B], [B, A]] as const) await store.watch({ watcher, target, now: T0 });
        const all = await store.readCursorJournal();
        const positions = all.map((entry) => entry.position);
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
        expect(new Set(positions).size).toBe(positions.length);
        const pairs = (entries: readonly CursorJournalEntry[]) => entries.map((entry) => `${entry.watcher} -> ${entry.target}`);
        expect(pairs(all)).toEqual([`${C} -> ${B}`, `${A} -> ${C}`, `${A} -> ${B}`, `${B} -> ${A}`]);
        expect(await store.readCursorJournal({})).toEqual(all);
        expect(pairs(await store.readCursorJournal({ watcher: A }))).toEqual([`${A} -> ${C}`, `${A} -> ${B}`]);
        expect(pairs(await store.readCursorJournal({ target: B }))).toEqual([`${C} -> ${B}`, `${A} -> ${B}`]);
        expect(pairs(await store.readCursorJournal({ watcher: A, target: B }))).toEqual([`${A} -> ${B}`]);
        expect(await store.readCursorJournal({ watcher: D })).toEqual([]);
      });

      test('a reopened store keeps the journal as it was', async () => {
        await store.watch({ watcher: A, target: B, now: T0 });
        await append(store, B, foreign(), T0 + 1);
        const before = await store.readCursorJournal();
        expect(await (await reopened()).readCursorJournal()).toEqual(before);
      });
    });

    // --- laws ------------------------------------------------------------------------------

    describe('laws', () => {
      type Op =
        | { readonly type: 'append'; readonly session: number; readonly dt: number; readonly count: number }
        | { readonly type: 'prune'; readonly dt: number; readonly maxAgeMs: number; readonly maxRows: number; readonly batchSize: number }
        | { readonly type: 'delete'; readonly session: number };

      const sessionsOf = [B, C, D] as const;
      const opArb: fc.Arbitrary<Op> = fc.oneof(
        { arbitrary: fc.record({ type: fc.constant('append' as const), session: fc.nat(2), dt: fc.integer({ min: -60, max: 60 }), count: fc.integer({ min: 1, max: 3 }) }), weight: 5 },
        {
          arbitrary: fc.record({
            type: fc.constant('prune' as const),
            dt: fc.integer({ min: -60, max: 60 }),
            maxAgeMs: fc.integer({ min: 0, max: 60 }),
            maxRows: fc.nat(8),
            batchSize: fc.integer({ min: 1, max: 5 }),
          }),
          weight: 2,
        },
        { arbitrary: fc.record({ type: fc.constant('delete' as const), session: fc.nat(2) }), weight: 1 },
      );

      test('head and prune watermark laws: heads never fall, the watermark is the highest sequence ever removed, historyGap is exact, fresh rows survive age pruning', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
            const h = await factory();
            try {
              const s = h.store;
              let now = T0;
              const appended = new Map<SessionKey, StoredEvent[]>(sessionsOf.map((k) => [k, []]));
              const removedSeqs = new Map<SessionKey, number[]>(sessionsOf.map((k) => [k, []]));
              const lastHead = new Map<SessionKey, SignalLogHead>();
              for (const op of ops) {
                const retainedBefore = new Map<SessionKey, StoredEvent[]>();
                for (const k of sessionsOf) retainedBefore.set(k, await readAll(s, k));
                if (op.type === 'append') {
                  now += op.dt * MINUTE;
                  const k = sessionsOf[op.session] as SessionKey;
                  const before = await headOf(s, k);
                  const outcomes = await s.append(Array.from({ length: op.count }, () => request(k, {}, now)));
                  let previous: number = before.head;
                  for (const outcome of outcomes) {
                    const event = expectAppended(outcome).event;
                    expect(event.sequence).toBeGreaterThan(previous);
                    previous = event.sequence;
                    appended.get(k)?.push(event);
                  }
                } else if (op.type === 'prune') {
                  now += op.dt * MINUTE;
                  const rowsBefore = [...retainedBefore.values()].reduce((n, events) => n + events.length, 0);
                  const batch = await s.prune({ now, maxAgeMs: op.maxAgeMs * MINUTE, maxRows: op.maxRows, batchSize: op.batchSize });
                  expect(batch.eventsDeleted).toBeLessThanOrEqual(op.batchSize);
                  if (rowsBefore <= op.maxRows) {
                    // Nothing was over the cap, so only rows appended before the cutoff may go.
                    const cutoff = now - op.maxAgeMs * MINUTE;
                    for (const k of sessionsOf) {
                      const kept = new Set(seqs(await readAll(s, k)));
                      for (const event of retainedBefore.get(k) ?? []) {
                        if (event.appendedAt >= cutoff) expect(kept.has(event.sequence)).toBe(true);
                      }
                    }
                  }
                } else {
                  await s.deleteSession(sessionsOf[op.session] as SessionKey, T0);
                }
                for (const k of sessionsOf) {
                  const retained = await readAll(s, k);
                  const keptNow = new Set(seqs(retained));
                  for (const event of retainedBefore.get(k) ?? []) if (!keptNow.has(event.sequence)) removedSeqs.get(k)?.push(event.sequence);
                  const all = appended.get(k) ?? [];
                  const removed = removedSeqs.get(k) ?? [];
                  const head = await headOf(s, k);
                  // Retained = appended minus removed, in order; the head is the highest ever assigned.
                  expect(seqs(retained)).toEqual(seqs(all).filter((sequence) => !removed.includes(sequence)));
                  expect(head.head).toBe(all.length === 0 ? 0 : Math.max(...seqs(all)));
                  expect(head.pruneWatermark).toBe(removed.length === 0 ? 0 : Math.max(...removed));
                  const previous = lastHead.get(k);
                  if (previous !== undefined) {
                    expect(head.head).toBeGreaterThanOrEqual(previous.head);
                    expect(head.pruneWatermark).toBeGreaterThanOrEqual(previous.pruneWatermark);
                  }
                  lastHead.set(k, head);
                  // readChanges reads the same head; historyGap(since) holds exactly when some
                  // removed event lies above since (checked at 0 and on both sides of the watermark).
                  for (const since of new Set([0, head.pruneWatermark, Math.max(0, head.pruneWatermark - 1)])) {
                    const page = await s.readChanges(k, since as StoredEvent['sequence'], 200);
                    expect(page.head).toEqual(head);
                    expect(historyGap(page.head, since as StoredEvent['sequence'])).toBe(removed.some((sequence) => sequence > since));
                  }
                }
              }
            } finally {
              await h.store.close();
              await h.cleanup();
            }
          }),
          { numRuns: PROPERTY_RUNS },
        );
      }, PROPERTY_TIMEOUT_MS);

      type HistoryOp =
        | { readonly type: 'append'; readonly session: number; readonly actor: number; readonly kind: EventKind; readonly dt: number }
        | { readonly type: 'watch'; readonly watcher: number; readonly target: number }
        | { readonly type: 'spawn'; readonly parent: number; readonly child: number }
        | { readonly type: 'drain'; readonly watcher: number; readonly stale: boolean }
        | { readonly type: 'restart' }
        | { readonly type: 'reset'; readonly watcher: number }
        | { readonly type: 'unwatch'; readonly watcher: number; readonly target: number }
        | { readonly type: 'read'; readonly watcher: number; readonly target: number; readonly fromZero: boolean; readonly lag: number }
        | { readonly type: 'delete'; readonly session: number }
        | { readonly type: 'prune'; readonly dt: number; readonly maxAgeMs: number; readonly maxRows: number; readonly batchSize: number; readonly untilDone: boolean };

      const cast = [A, B, C, CHILD] as const;
      const castIndex = fc.nat(cast.length - 1);
      const historyOpArb: fc.Arbitrary<HistoryOp> = fc.oneof(
        {
          weight: 12,
          arbitrary: fc.record({
            type: fc.constant('append' as const),
            session: castIndex,
            // The last index is "nobody named" (a human); the others are agents of the cast.
            actor: fc.nat(cast.length),
            kind: fc.constantFrom<EventKind>('human_direct_message', 'goal_changed', 'upstream_missing', 'run_completed'),
            dt: fc.integer({ min: -2, max: 5 }),
          }),
        },
        { weight: 3, arbitrary: fc.record({ type: fc.constant('watch' as const), watcher: castIndex, target: castIndex }) },
        { weight: 1, arbitrary: fc.record({ type: fc.constant('spawn' as const), parent: castIndex, child: castIndex }) },
        { weight: 1, arbitrary: fc.record({ type: fc.constant('drain' as const), watcher: castIndex, stale: fc.boolean() }) },
        { weight: 1, arbitrary: fc.constant({ type: 'restart' as const }) },
        { weight: 1, arbitrary: fc.record({ type: fc.constant('reset' as const), watcher: castIndex }) },
        { weight: 1, arbitrary: fc.record({ type: fc.constant('unwatch' as const), watcher: castIndex, target: castIndex }) },
        {
          weight: 2,
          // A reader's status that reached the head, possibly an older one (lag: changes recorded after the read).
          arbitrary: fc.record({ type: fc.constant('read' as const), watcher: castIndex, target: castIndex, fromZero: fc.boolean(), lag: fc.nat(2) }),
        },
        { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), session: castIndex }) },
        {
          weight: 2,
          arbitrary: fc.record({
            type: fc.constant('prune' as const),
            dt: fc.integer({ min: -5, max: 10 }),
            maxAgeMs: fc.integer({ min: 0, max: 60 }),
            maxRows: fc.nat(6),
            batchSize: fc.integer({ min: 1, max: 4 }),
            untilDone: fc.boolean(),
          }),
        },
      );

      test('journal replay: after any history of appends, watches, spawns, drains, restarts, resets, unwatches, reader acknowledgements, deletes and prunes, every live cursor replays from its journal and its target’s retained events to exactly its row', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(historyOpArb, { minLength: 10, maxLength: 40, size: 'large' }), async (ops) => {
            const h = await factory();
            let s = h.store;
            try {
              let now = T0;
              for (const op of ops) {
                switch (op.type) {
                  case 'append': {
                    now += op.dt * MINUTE;
                    const actor = cast[op.actor];
                    const spec: RecordSpec = actor === undefined ? { kind: op.kind, actorType: 'human' } : { kind: op.kind, actorType: 'agent', actorSessionKey: actor };
                    await s.append([request(cast[op.session] as SessionKey, spec, now)]);
                    break;
                  }
                  case 'watch':
                    await s.watch({ watcher: cast[op.watcher] as SessionKey, target: cast[op.target] as SessionKey, now });
                    break;
                  case 'spawn': {
                    const parent = cast[op.parent] as SessionKey;
                    await s.append([request(cast[op.child] as SessionKey, { kind: 'child_spawned', actorType: 'agent', actorSessionKey: parent }, now, parent)]);
                    break;
                  }
                  case 'drain': {
                    const watcher = cast[op.watcher] as SessionKey;
                    const held = await s.pendingNotices((w) => w === watcher);
                    const acks = held.map((notice) => ({ target: notice.target as SessionKey, notified: (op.stale ? notice.notified + 1 : notice.notified) as StoredEvent['sequence'] }));
                    await s.drain(watcher, acks, now);
                    break;
                  }
                  case 'restart':
                    s = await h.reopen();
                    await s.restartScan(now);
                    break;
                  case 'reset':
                    await s.resetWatcher(cast[op.watcher] as SessionKey, now);
                    break;
                  case 'unwatch':
                    await s.unwatch(cast[op.watcher] as SessionKey, cast[op.target] as SessionKey, now);
                    break;
                  case 'read': {
                    const watcher = cast[op.watcher] as SessionKey;
                    const target = cast[op.target] as SessionKey;
                    const [row] = await s.listCursors({ watcher, target });
                    const retained = await readAll(s, target);
                    const [head] = await s.readHeads([target]);
                    const through = retained[retained.length - 1 - op.lag]?.sequence ?? head?.head ?? seqOf(0);
                    await s.acknowledgeRead({ watcher, target, since: op.fromZero ? seqOf(0) : (row?.acked ?? seqOf(0)), through, now });
                    break;
                  }
                  case 'delete':
                    await s.deleteSession(cast[op.session] as SessionKey, now);
                    break;
                  case 'prune':
                    now += op.dt * MINUTE;
                    if (op.untilDone) await pruneAll(s, now, op.maxAgeMs * MINUTE, op.maxRows, op.batchSize);
                    else await s.prune({ now, maxAgeMs: op.maxAgeMs * MINUTE, maxRows: op.maxRows, batchSize: op.batchSize });
                    break;
                  default: {
                    const unreachable: never = op;
                    throw new Error(`unknown op ${JSON.stringify(unreachable)}`);
                  }
                }
                const mismatches: string[] = [];
                for (const row of await s.listCursors()) {
                  const mismatch = await replayMismatch(s, row);
                  if (mismatch !== undefined) mismatches.push(mismatch);
                }
                expect({ after: op, mismatches }).toEqual({ after: op, mismatches: [] });
              }
            } finally {
              await s.close();
              await h.cleanup();
            }
          }),
          { numRuns: PROPERTY_RUNS },
        );
      }, PROPERTY_TIMEOUT_MS);

      test('paging with nextSince from any point returns every retained event after it once, in order, with hasMore false only on the last page', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.boolean(), { maxLength: 60 }),
            fc.integer({ min: 1, max: 20 }),
            fc.nat(80),
            fc.nat(10),
            async (sessionOfEach, limit, sinceSeed, pruneTo) => {
              const h = await factory();
              try {
                const s = h.store;
                const outcomes = await s.append(sessionOfEach.map((isB) => request(isB ? B : C)));
                await pruneAll(s, T0, DAY, Math.max(pruneTo, sessionOfEach.length - pruneTo));
                const retained = await readAll(s, B, 0, 200);
                const since = sinceSeed % (outcomes.length + 2);
                const expected = seqs(retained).filter((sequence) => sequence > since);
                const seen: number[] = [];
                let next = since;
                for (let page = 0; page <= expected.length; page++) {
                  const result = await s.readChanges(B, next as StoredEvent['sequence'], limit);
                  expect(result.events.length).toBeLessThanOrEqual(limit);
                  seen.push(...seqs(result.events));
                  next = result.events[result.events.length - 1]?.sequence ?? next;
                  expect(result.hasMore).toBe(seen.length < expected.length);
                  if (!result.hasMore) break;
                }
                expect(seen).toEqual(expected);
              } finally {
                await h.store.close();
                await h.cleanup();
              }
            },
          ),
          { numRuns: PROPERTY_RUNS },
        );
      }, PROPERTY_TIMEOUT_MS);
    });
  });
}
