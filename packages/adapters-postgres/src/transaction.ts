// Runs one store operation as one transaction on a pooled connection, retrying it whole when
// PostgreSQL aborted it for a deadlock or a serialization failure (gateways locking the same
// rows in different orders): nothing of an aborted attempt was kept, so a retry is safe.
import type { PoolClient, QueryResultRow } from 'pg';

import type { StoreDb } from './storeDb';

/** deadlock_detected, serialization_failure: the transaction was rolled back and may be retried. */
const RETRYABLE = new Set(['40P01', '40001']);
export const MAX_ATTEMPTS = 5;

/** The SQLSTATE of a driver error, if it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isRetryable(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRYABLE.has(code);
}

/** A statement built once at open: a name (prepared once per connection) and its text. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** Runs a named statement with positional values; rows come back as arrays. */
export async function run<Row extends unknown[] = unknown[]>(client: PoolClient, statement: Statement, values: readonly unknown[]): Promise<Row[]> {
  const result = await client.query<Row & QueryResultRow>({ name: statement.name, text: statement.text, values: values as unknown[], rowMode: 'array' });
  return result.rows;
}

/** A whole operation in one `BEGIN … COMMIT`, retried on deadlock or serialization failure. */
export async function inTransaction<T>(db: StoreDb, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await db.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection itself failed: do not hand it back to the pool.
        broken = true;
      }
      if (attempt < MAX_ATTEMPTS && isRetryable(e)) continue;
      throw e;
    } finally {
      client.release(broken);
    }
  }
}

/** A single statement outside an explicit transaction (one snapshot on its own). */
export async function runAlone<Row extends unknown[] = unknown[]>(db: StoreDb, statement: Statement, values: readonly unknown[]): Promise<Row[]> {
  const result = await db.pool.query<Row & QueryResultRow>({ name: statement.name, text: statement.text, values: values as unknown[], rowMode: 'array' });
  return result.rows;
}
