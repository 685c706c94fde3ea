// One store operation as one transaction, retried whole when nothing of it can have been kept; a COMMIT lost with its connection is asked back.
import { bindValues } from '@session-state/adapters-sql-common';
import type { SQL } from 'drizzle-orm';
import type { Pool, PoolClient, QueryResultRow } from 'pg';

import { dialect, type Statement } from '../statements.js';
import type { StoreDb } from '../storeDb.js';
import { checkOut, type HeldClient } from './checkOut.js';
import { isConnectTimeout, isNoAnswer, noAnswerError, reportLocked, sqlState } from './lockedFailure.js';

/** deadlock_detected, serialization_failure: the transaction was rolled back and may be retried. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;
/** Fresh connections an operation tries after losing one, before it fails. */
const MAX_RECONNECTS = 3;
/** How often an 'in progress' commit status is asked again (the lost backend may still be ending), and the pause between. */
const STATUS_ASKS = 50;
const STATUS_PAUSE_MS = 10;

export const isRetryable = (error: unknown): boolean => RETRYABLE.has(sqlState(error) ?? '');

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Whether a transaction whose COMMIT answer was lost with its connection committed, as the server recorded it (txid_status on another connection). */
async function commitStatus(pool: Pool, transactionId: string): Promise<'committed' | 'aborted' | undefined> {
  for (let ask = 0; ask < STATUS_ASKS; ask += 1) {
    // pool.query hears the client's 'error' and closes a client that failed; a failed ask is an unknown status.
    const asked = await pool.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [transactionId]).catch(() => undefined);
    const status = asked?.rows[0]?.status;
    if (status === 'committed' || status === 'aborted') return status;
    if (status !== 'in progress') return undefined;
    await new Promise((resolve) => setTimeout(resolve, STATUS_PAUSE_MS));
  }
  return undefined;
}

/** A checked-out connection; one that fails while opening is tried again (counted as a reconnect) unless it timed out. */
async function connect(db: StoreDb, reconnects: number): Promise<{ readonly held: HeldClient; readonly reconnects: number }> {
  for (let tried = reconnects; ; tried += 1) {
    try {
      return { held: await checkOut(db.pool), reconnects: tried };
    } catch (e) {
      if (tried >= MAX_RECONNECTS || isConnectTimeout(e)) throw e;
    }
  }
}

/** Runs a statement with its named values; rows come back as arrays. */
export async function run<P extends object, Row extends unknown[] = unknown[]>(client: PoolClient, statement: Statement<P>, params: P): Promise<Row[]> {
  try {
    const result = await client.query<Row & QueryResultRow>({ name: statement.name, text: statement.text, values: bindValues(statement.names, params), rowMode: 'array' });
    return result.rows;
  } catch (e) {
    throw reportLocked(e);
  }
}

/** Two statements sent back to back in one round trip (pipeline mode), run in order; rejects with the first's failure, else the second's. */
export async function runBoth<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  second.catch(() => undefined);
  const a = await first;
  return [a, await second];
}

/** For watch, prune and the restart scan: a lost COMMIT answer is not asked of the server (asking costs a transaction id). */
export const NO_COMMIT_CHECK = false;

/** A whole operation in one `BEGIN … COMMIT`; after a connection lost during COMMIT, the result, a retry or "outcome unknown" as the server tells. */
export async function inTransaction<T>(db: StoreDb, work: (client: PoolClient) => Promise<T>, checkCommit = true): Promise<T> {
  let reconnects = 0;
  for (let attempt = 1; ; ) {
    let held: HeldClient;
    ({ held, reconnects } = await connect(db, reconnects));
    const { client } = held;
    let transactionId: string | undefined;
    let committing = false;
    let result: T | undefined;
    try {
      // The id names the transaction when its COMMIT's answer is lost.
      const begun = await client.query(checkCommit ? 'BEGIN; SELECT txid_current()::text AS id' : 'BEGIN');
      if (checkCommit) transactionId = (begun as unknown as [unknown, { rows: { id: string }[] }])[1].rows[0]?.id;
      result = await work(client);
      if (held.lostError() !== undefined) throw held.lostError();
      committing = true;
      await client.query('COMMIT');
      held.release();
      return result;
    } catch (e) {
      // A failed ROLLBACK means the connection itself failed (its error may not be heard yet).
      const lost = held.lostError() !== undefined || !(await held.answers('ROLLBACK'));
      held.release(lost);
      if (!lost) {
        if (attempt < MAX_ATTEMPTS && isRetryable(e)) {
          attempt += 1;
          continue;
        }
        throw reportLocked(e);
      }
      const cause = messageOf(held.lostError() ?? e);
      if (committing) {
        const status = transactionId === undefined ? undefined : await commitStatus(db.pool, transactionId);
        if (status === 'committed') return result as T;
        if (status !== 'aborted') throw new Error(`the connection to PostgreSQL was lost during COMMIT (${cause}) and whether the transaction committed could not be read back: the operation may or may not have been applied`);
      }
      // A server that stopped answering is not asked again on a fresh connection.
      if (isNoAnswer(e)) throw noAnswerError(e);
      if (reconnects < MAX_RECONNECTS) {
        reconnects += 1;
        continue;
      }
      throw new Error(`the connection to PostgreSQL was lost before the transaction committed, ${MAX_RECONNECTS + 1} times (${cause}); nothing of it was kept`);
    }
  }
}

/** A statement outside a transaction (one snapshot), retried on a fresh connection after a lost one. */
export function runAlone<P extends object, Row extends unknown[] = unknown[]>(db: StoreDb, statement: Statement<P>, params: P): Promise<Row[]> {
  return queryAlone<Row>(db, { name: statement.name, text: statement.text }, bindValues(statement.names, params));
}

/** A query built per call (its values bound by drizzle), as runAlone runs a statement. */
export function readAlone<Row extends unknown[] = unknown[]>(db: StoreDb, query: SQL): Promise<Row[]> {
  const { sql, params } = dialect.sqlToQuery(query);
  return queryAlone<Row>(db, { text: sql }, params);
}

async function queryAlone<Row extends unknown[]>(db: StoreDb, statement: { readonly name?: string; readonly text: string }, values: readonly unknown[]): Promise<Row[]> {
  for (let reconnects = 0; ; reconnects += 1) {
    let held: HeldClient;
    ({ held, reconnects } = await connect(db, reconnects));
    try {
      const result = await held.client.query<Row & QueryResultRow>({ ...statement, values: values as unknown[], rowMode: 'array' });
      held.release();
      return result.rows;
    } catch (e) {
      const lost = held.lostError() !== undefined || !(await held.answers('SELECT 1'));
      held.release(lost);
      if (!lost) throw reportLocked(e);
      if (isNoAnswer(e)) throw noAnswerError(e);
      if (reconnects >= MAX_RECONNECTS) throw new Error(`the connection to PostgreSQL was lost during a read, ${MAX_RECONNECTS + 1} times (${messageOf(held.lostError())})`);
    }
  }
}
