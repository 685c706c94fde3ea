// Runs one store operation as one transaction on a pooled connection, retrying it whole when
// nothing of an attempt can have been kept: PostgreSQL aborted it (a deadlock, a serialization
// failure), or its connection was lost before COMMIT was sent (the server rolls back a
// transaction whose session ends). A connection lost while COMMIT was under way leaves the
// outcome open: it is read back from the server (the transaction's id) before anything is retried.
import { bindValues } from '@session-state/adapters-sql-common';
import type { SQL } from 'drizzle-orm';
import type { PoolClient, QueryResultRow } from 'pg';

import { checkOut, type HeldClient } from './checkOut.js';
import { commitStatus } from './commitStatus.js';
import { dialect, type Statement } from './compile.js';
import { isConnectTimeout, isNoAnswer, noAnswerError, reportLocked } from './lockedFailure.js';
import type { StoreDb } from './storeDb.js';

/** deadlock_detected, serialization_failure: the transaction was rolled back and may be retried. */
const RETRYABLE = new Set(['40P01', '40001']);
export const MAX_ATTEMPTS = 5;
/** Fresh connections an operation tries after losing one, before it fails. */
export const MAX_RECONNECTS = 3;

/** The SQLSTATE of a driver error, if it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isRetryable(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRYABLE.has(code);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A checked-out connection; a connection that fails while it is being opened (its backend
 * terminated at startup) is tried again, counted with the operation's other reconnects, unless it
 * timed out (a server that does not answer).
 */
async function connect(db: StoreDb, reconnects: number): Promise<{ readonly held: HeldClient; readonly reconnects: number }> {
  for (let tried = reconnects; ; tried += 1) {
    try {
      // Not spread into one object: copying the held client's methods reshapes an object per transaction.
      return { held: await checkOut(db.pool), reconnects: tried };
    } catch (e) {
      if (tried >= MAX_RECONNECTS || isConnectTimeout(e)) throw e;
    }
  }
}

export type { Statement } from './compile.js';

/** Runs a statement with its named values; rows come back as arrays. */
export async function run<P extends object, Row extends unknown[] = unknown[]>(client: PoolClient, statement: Statement<P>, params: P): Promise<Row[]> {
  try {
    const result = await client.query<Row & QueryResultRow>({ name: statement.name, text: statement.text, values: bindValues(statement.names, params), rowMode: 'array' });
    return result.rows;
  } catch (e) {
    throw reportLocked(e);
  }
}

/**
 * Two statements sent back to back on one connection, the second without waiting for the first's
 * answer (the pool's connections are in pipeline mode: one round trip for both). The server runs
 * them in order, so the second still sees what the first locked or wrote. Resolves with both;
 * rejects with the first statement's failure when it fails (the second then fails only because
 * the transaction is aborted, and its rejection is dropped), else with the second's.
 *
 * @example const [inserted, cursors] = await runBoth(run(client, st.a, a), run(client, st.b, b));
 */
export async function runBoth<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  // Heard here so it is never unhandled; awaited below when the first succeeded.
  second.catch(() => undefined);
  const a = await first;
  return [a, await second];
}

export interface TransactionOptions {
  /**
   * Whether a COMMIT whose answer was lost with the connection is resolved by asking the server
   * whether the transaction committed (default true). It costs a transaction id even when the
   * work writes nothing, so frequent operations that usually write nothing and are harmless to
   * repeat by hand (watch, prune, recover) turn it off and fail with "outcome unknown" instead.
   */
  readonly checkCommit?: boolean;
}

/** For watch, prune and recover: see `checkCommit`. */
export const NO_COMMIT_CHECK: TransactionOptions = { checkCommit: false };

/**
 * A whole operation in one `BEGIN … COMMIT`. Retried whole after a deadlock or serialization
 * failure, and on a fresh connection after the connection was lost before COMMIT was sent. After
 * a connection lost during COMMIT: the result when the server says the transaction committed, a
 * retry when it says it aborted, and an "outcome unknown" error when it cannot tell.
 */
export async function inTransaction<T>(db: StoreDb, work: (client: PoolClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const checkCommit = options.checkCommit ?? true;
  let reconnects = 0;
  for (let attempt = 1; ; ) {
    const connected = await connect(db, reconnects);
    reconnects = connected.reconnects;
    const { held } = connected;
    const { client } = held;
    // Everything below rejects rather than throwing an unheard 'error' (see checkOut).
    let transactionId: string | undefined;
    let committing = false;
    let result: T | undefined;
    try {
      if (checkCommit) {
        // One round trip: the id names the transaction when its COMMIT's answer is lost.
        const begun = (await client.query('BEGIN; SELECT txid_current()::text AS id')) as unknown as [unknown, { rows: { id: string }[] }];
        transactionId = begun[1].rows[0]?.id;
      } else {
        await client.query('BEGIN');
      }
      result = await work(client);
      // A connection known lost here was never sent the COMMIT: the work is retried below.
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
        if (status !== 'aborted') {
          throw new Error(
            `the connection to PostgreSQL was lost during COMMIT (${cause}) and whether the transaction committed could not be read back: the operation may or may not have been applied`,
          );
        }
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

/** A statement outside an explicit transaction (one snapshot on its own), retried on a fresh connection after a lost one: a read keeps nothing. */
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
    const connected = await connect(db, reconnects);
    reconnects = connected.reconnects;
    const { held } = connected;
    try {
      const result = await held.client.query<Row & QueryResultRow>({ ...statement, values: values as unknown[], rowMode: 'array' });
      held.release();
      return result.rows;
    } catch (e) {
      const lost = held.lostError() !== undefined || !(await held.answers('SELECT 1'));
      held.release(lost);
      if (!lost) throw reportLocked(e);
      if (isNoAnswer(e)) throw noAnswerError(e);
      if (reconnects >= MAX_RECONNECTS) {
        throw new Error(`the connection to PostgreSQL was lost during a read, ${MAX_RECONNECTS + 1} times (${messageOf(held.lostError())})`);
      }
    }
  }
}
