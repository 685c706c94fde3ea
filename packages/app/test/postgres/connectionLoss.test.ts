// A gateway on PostgreSQL whose backends are terminated at random (pg_terminate_backend, as a
// failover or idle_in_transaction_session_timeout would end them) while it records and drains:
// the process lives, `record` always resolves (ok, or ok: false with an error), a drain succeeds
// or rejects, and every record that answered ok is stored exactly once.
import pg from 'pg';

import { createSessionStateAwareness, type RecordResult, type SessionStateAwareness } from '../../src/index.js';
import { openPostgresStore } from '@session-state/adapters-postgres';
import { terminateBackendsAtRandom } from '@session-state/testkit';
import { noticeTexts } from '../support/noticeTexts.js';

jest.setTimeout(120_000);

const URL_ = process.env['SESSION_STATE_PG_URL'] as string;
/** Terminations per run; raise with PG_CONNECTION_LOSS_KILLS for a longer search. */
const KILLS = Number(process.env['PG_CONNECTION_LOSS_KILLS'] ?? '') || 100;
const W = 'agent:w:main';
const TARGETS = ['agent:t1:main', 'agent:t2:main', 'agent:t3:main'];
const silent = { warn: () => undefined, error: () => undefined };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

let schema: string;
let appName: string;
let awareness: SessionStateAwareness;
let uncaught: unknown[];
const onUncaught = (error: unknown): void => {
  uncaught.push(error);
};

beforeEach(async () => {
  const tag = `${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  schema = `ss_app_loss_${tag}`;
  appName = `ss_app_loss_${tag}`;
  uncaught = [];
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const url = new URL(URL_);
  url.searchParams.set('application_name', appName);
  const store = await openPostgresStore({ connectionString: url.toString(), schema, maxConnections: 3 });
  // ownsSession makes the facade listen, so the listening connection is terminated too.
  awareness = await createSessionStateAwareness({ store, logger: silent, ownsSession: () => true, wake: () => undefined });
});

afterEach(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  await awareness.close();
  jest.restoreAllMocks();
  await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

test('terminated backends while a gateway records and drains: the process lives, record always resolves, every ok record is stored once', async () => {
  for (const target of TARGETS) expect(await awareness.sent({ senderKey: W, deliveredTo: target, watch: true })).toEqual({ watched: true });
  const results: { summary: string; result: RecordResult }[] = [];
  const drainErrors: unknown[] = [];
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

  const recorder = async (): Promise<void> => {
    while (running) {
      // A few unawaited records per turn, so group commit batches them.
      const batch = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => {
        n += 1;
        const summary = `change ${n}`;
        const target = TARGETS[n % TARGETS.length] as string;
        const record = awareness.record({ sessionKey: target, kind: 'goal_changed', actorType: 'agent', actorSessionKey: 'agent:x:main', summary, ...(n % 2 === 0 ? { dedupeKey: `dedupe-${n}` } : {}) });
        return record.then((result) => results.push({ summary, result }));
      });
      await Promise.all(batch);
    }
  };

  const drainer = async (): Promise<void> => {
    while (running) {
      try {
        noticeTexts(await awareness.drain(W));
      } catch (error) {
        drainErrors.push(error);
      }
      await sleep(1);
    }
  };

  await Promise.all([killer(), recorder(), recorder(), drainer()]);

  expect(uncaught).toEqual([]);
  expect(terminated).toBeGreaterThanOrEqual(KILLS / 2);
  for (const { result } of results) {
    if (!result.ok) expect(result.error).toBeInstanceOf(Error);
  }
  for (const error of drainErrors) expect(error).toBeInstanceOf(Error);

  // The gateway works afterwards.
  const after = await awareness.record({ sessionKey: TARGETS[0] as string, kind: 'goal_changed', actorType: 'agent', actorSessionKey: 'agent:x:main', summary: 'after' });
  expect(after.ok).toBe(true);
  noticeTexts(await awareness.drain(W));

  const rows = await sql<{ summary: string; n: number }>(`SELECT summary, count(*)::int AS n FROM ${schema}.events GROUP BY summary`);
  const stored = new Map(rows.map((row) => [row.summary, row.n]));
  expect(rows.filter((row) => row.n > 1)).toEqual([]);
  const okButMissing = results.filter(({ summary, result }) => result.ok && stored.get(summary) !== 1).map(({ summary }) => summary);
  expect(okButMissing).toEqual([]);
  expect(results.filter(({ result }) => result.ok).length).toBeGreaterThan(0);
});
