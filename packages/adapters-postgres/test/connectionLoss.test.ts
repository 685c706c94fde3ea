// Connection loss: the store's backends terminated at random (pg_terminate_backend, as a failover
// or idle_in_transaction_session_timeout would end them) while appends, drains and reads run.
// The process lives (no 'error' goes unheard), each operation succeeds or rejects with a clear
// error, and afterwards everything reported stored is stored exactly once.
import { isStoreError, type AppendRequest, type SessionKey, type StateStore, type StoreError } from '@session-state/domain';
import { dropSchema, heldNotices, pgUrl, terminateBackendsAtRandom, uniqueSchema, withClient } from '@session-state/testkit';

import { openPostgresStore } from '../src/index.js';
import { humanTurn, key } from './support/commands.js';

jest.setTimeout(120_000);

/** Terminations per run; raise with PG_CONNECTION_LOSS_KILLS for a longer search. */
const KILLS = Number(process.env['PG_CONNECTION_LOSS_KILLS'] ?? '') || 100;
const W = key('agent:w:main');
const TARGETS = ['agent:t1:main', 'agent:t2:main', 'agent:t3:main'].map(key);
const ACTOR = 'agent:x:main';
const T0 = Date.UTC(2026, 10, 30);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** What one append request was told. */
type Told = { summary: string; dedupeKey?: string; sequence?: number; result: 'stored' | 'failed' | 'nothing kept' | 'unknown' };

/** A store error is clear when it names the operation and says the connection was lost (or what PostgreSQL said). */
function expectClear(error: unknown, operation: string): StoreError {
  expect(isStoreError(error)).toBe(true);
  const storeError = error as StoreError;
  expect(storeError.operation).toBe(operation);
  expect(storeError.message).toMatch(/connection|terminat/i);
  return storeError;
}

let schema: string;
let appName: string;
let store: StateStore;
let uncaught: unknown[];
const onUncaught = (error: unknown): void => {
  uncaught.push(error);
};

beforeEach(async () => {
  schema = uniqueSchema('loss');
  appName = `ss_loss_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  uncaught = [];
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  // Idle pooled connections that die are reported by the pool's listener: expected here.
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const url = new URL(pgUrl());
  url.searchParams.set('application_name', appName);
  store = await openPostgresStore({ connectionString: url.toString(), schema, maxConnections: 4 });
});

afterEach(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  jest.restoreAllMocks();
  await store.close();
  await dropSchema(schema);
});

test('terminated backends during appends, drains and reads: the process lives, failures are clear, nothing reported stored is lost or stored twice', async () => {
  for (const target of TARGETS) await store.watch({ watcher: W, target, now: T0 });
  const told: Told[] = [];
  const drainErrors: unknown[] = [];
  const appendErrors: unknown[] = [];
  const readErrors: unknown[] = [];
  const maxAcked = new Map<string, number>();
  let running = true;
  let terminated = 0;
  let n = 0;

  const killer = async (): Promise<void> => {
    try {
      terminated = await terminateBackendsAtRandom(appName, KILLS);
    } finally {
      running = false;
    }
  };

  const writer = async (): Promise<void> => {
    while (running) {
      const batch: { request: AppendRequest; told: Told }[] = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => {
        n += 1;
        const summary = `change ${n}`;
        const dedupeKey = n % 2 === 0 ? `dedupe-${n}` : undefined;
        const command = humanTurn(pick(TARGETS), { kind: 'goal_changed', actorType: 'agent', actorSessionKey: ACTOR, summary, ...(dedupeKey !== undefined ? { dedupeKey } : {}) });
        return { request: { command, appendedAt: T0 + n }, told: { summary, ...(dedupeKey !== undefined ? { dedupeKey } : {}), result: 'failed' } };
      });
      try {
        const outcomes = await store.append(batch.map((entry) => entry.request));
        outcomes.forEach((outcome, i) => {
          const entry = batch[i]?.told as Told;
          if (outcome.type === 'appended' || outcome.type === 'duplicate') told.push({ ...entry, sequence: outcome.event.sequence, result: 'stored' });
          else told.push(entry);
        });
      } catch (error) {
        appendErrors.push(error);
        const result = isStoreError(error) && /may or may not/.test(error.message) ? 'unknown' : 'nothing kept';
        for (const entry of batch) told.push({ ...entry.told, result });
      }
    }
  };

  const drainer = async (): Promise<void> => {
    while (running) {
      try {
        const pending = await heldNotices(store, (watcher) => watcher === W);
        if (pending.length === 0) {
          await sleep(1);
          continue;
        }
        const outcomes = await store.drain({ watcher: W, acks: pending.map((notice) => ({ target: notice.target as SessionKey, notified: notice.notified })), now: T0 });
        for (const outcome of outcomes) {
          if (outcome.result === 'acked') maxAcked.set(outcome.target, Math.max(maxAcked.get(outcome.target) ?? 0, outcome.acked));
        }
      } catch (error) {
        drainErrors.push(error);
      }
    }
  };

  const reader = async (): Promise<void> => {
    while (running) {
      try {
        await store.readChanges(pick(TARGETS), 0 as never, 50);
        await store.listCursors({ watcher: W });
      } catch (error) {
        readErrors.push(error);
      }
    }
  };

  await Promise.all([killer(), writer(), writer(), drainer(), reader()]);

  // The process lived: nothing was thrown outside an operation.
  expect(uncaught).toEqual([]);
  // The test terminated the store's connections (it cannot pass by killing nothing).
  expect(terminated).toBeGreaterThanOrEqual(KILLS / 2);

  // Every failure was a clear store error.
  for (const error of appendErrors) expectClear(error, 'append');
  for (const error of drainErrors) expect(isStoreError(error)).toBe(true);
  for (const error of readErrors) expect(isStoreError(error)).toBe(true);
  for (const error of drainErrors) expect((error as StoreError).message).toMatch(/connection|terminat/i);
  for (const error of readErrors) expect((error as StoreError).message).toMatch(/connection|terminat/i);

  // The store works afterwards.
  const [after] = await store.append([{ command: humanTurn(TARGETS[0] as SessionKey, { summary: 'after' }), appendedAt: T0 }]);
  expect(after?.type).toBe('appended');

  // Everything reported stored is stored once, at the reported sequence; nothing is stored twice;
  // a batch that failed before its commit left nothing.
  const rows = await withClient((c) => c.query<{ summary: string; n: number; sequence: string }>(`SELECT summary, count(*)::int AS n, min(sequence)::text AS sequence FROM ${schema}.events GROUP BY summary`));
  const stored = new Map(rows.rows.map((row) => [row.summary, row]));
  expect(rows.rows.filter((row) => row.n > 1)).toEqual([]);
  for (const entry of told) {
    const row = stored.get(entry.summary);
    if (entry.result === 'stored') expect({ summary: entry.summary, sequence: row?.sequence }).toEqual({ summary: entry.summary, sequence: String(entry.sequence) });
    if (entry.result === 'nothing kept' || entry.result === 'failed') expect({ summary: entry.summary, stored: row !== undefined }).toEqual({ summary: entry.summary, stored: false });
  }
  expect(told.filter((entry) => entry.result === 'stored').length).toBeGreaterThan(0);

  // Every reported ack was committed (acked never moves back), and each head is its newest event.
  const cursors = await store.listCursors({ watcher: W });
  for (const row of cursors) expect(row.acked).toBeGreaterThanOrEqual(maxAcked.get(row.target) ?? 0);
  const heads = await withClient((c) =>
    c.query<{ ok: boolean }>(`SELECT bool_and(h.head = (SELECT max(sequence) FROM ${schema}.events e WHERE e.session_key = h.session_key)) AS ok FROM ${schema}.heads h WHERE h.head > 0`),
  );
  expect(heads.rows[0]?.ok).toBe(true);
});
