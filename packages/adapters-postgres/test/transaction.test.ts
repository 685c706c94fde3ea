// inTransaction when the connection is lost at a known moment: during the work (retried on a
// fresh connection: nothing was kept) and during COMMIT after the server committed (the outcome is
// read back by transaction id, so the work is neither lost nor run again; without that check the
// operation fails saying the outcome is unknown).
import pg from 'pg';
import { dropSchema, pgUrl, uniqueSchema, withClient } from '@session-state/testkit';

import type { StoreDb } from '../src/storeDb.js';
import { inTransaction, NO_COMMIT_CHECK } from '../src/connection/transaction.js';

jest.setTimeout(30_000);

let schema: string;
let pool: pg.Pool;
let db: StoreDb;
/** What the next COMMIT sent on a pooled connection suffers. */
let nextCommit: 'answered' | 'lost after commit' = 'answered';
/** The transaction id the work saw last. */
let transactionId = '';

/** Drops the connection once the server has committed `transactionId`, before its answer is read. */
async function dropOnceCommitted(stream: { destroy(): void }): Promise<void> {
  for (;;) {
    const found = await withClient((c) => c.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [transactionId]));
    if (found.rows[0]?.status === 'committed') break;
  }
  stream.destroy();
}

beforeEach(async () => {
  schema = uniqueSchema('tx');
  await withClient((c) => c.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.done (work text)`));
  pool = new pg.Pool({ connectionString: pgUrl(), max: 2 });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (args[0] !== 'COMMIT' || nextCommit === 'answered') return query(...args);
      nextCommit = 'answered';
      const stream = (client as unknown as { connection: { stream: { pause(): void; destroy(): void } } }).connection.stream;
      stream.pause();
      const answer = query(...args);
      void dropOnceCommitted(stream);
      return answer;
    };
  });
  db = { pool } as unknown as StoreDb;
});

afterEach(async () => {
  await pool.end();
  await dropSchema(schema);
});

/** Work that records one row and the transaction id; counts its runs. */
function recordingWork(runs: { n: number }) {
  return async (client: pg.PoolClient): Promise<string> => {
    runs.n += 1;
    const found = await client.query<{ id: string }>('SELECT txid_current()::text AS id');
    transactionId = found.rows[0]?.id ?? '';
    await client.query(`INSERT INTO ${schema}.done (work) VALUES ('w')`);
    return 'done';
  };
}

async function rowsDone(): Promise<number> {
  const found = await withClient((c) => c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.done`));
  return found.rows[0]?.n ?? -1;
}

test('a COMMIT whose answer is lost after the server committed resolves to the result, run once and stored once', async () => {
  const runs = { n: 0 };
  nextCommit = 'lost after commit';
  await expect(inTransaction(db, recordingWork(runs))).resolves.toBe('done');
  expect(nextCommit).toBe('answered');
  expect(runs.n).toBe(1);
  expect(await rowsDone()).toBe(1);
});

test('without the commit check, a lost COMMIT fails saying the outcome is unknown, and is not run again', async () => {
  const runs = { n: 0 };
  nextCommit = 'lost after commit';
  await expect(inTransaction(db, recordingWork(runs), NO_COMMIT_CHECK)).rejects.toThrow(/lost during COMMIT .* may or may not have been applied/);
  expect(runs.n).toBe(1);
  expect(await rowsDone()).toBe(1);
});

test('a connection lost during the work is retried on a fresh connection and keeps nothing of the lost attempt', async () => {
  const runs = { n: 0 };
  const work = recordingWork(runs);
  const result = inTransaction(db, async (client) => {
    const value = await work(client);
    if (runs.n === 1) await withClient((c) => c.query('SELECT pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID]));
    return value;
  });
  await expect(result).resolves.toBe('done');
  expect(runs.n).toBe(2);
  expect(await rowsDone()).toBe(1);
});
