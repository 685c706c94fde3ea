// The connection settings every connection of a store uses: bigint columns (sequences, clock
// milliseconds) read as JavaScript numbers. No search_path: every statement names the store's
// schema itself (see schema.ts), so a search_path in the connection string changes nothing.
import pg, { type ClientConfig, type PoolConfig } from 'pg';

import type { CheckedOptions } from './options.js';

const INT8_OID = 20;

/** The application_name of the store's pooled connections (`listen`'s is LISTEN_APPLICATION_NAME). */
export const STORE_APPLICATION_NAME = 'session-state';

const parseInt8 = (value: string): number => Number(value);

/**
 * bigint → number: every stored bigint is a sequence or epoch milliseconds, far below 2^53. One
 * parser for every int8 column: node-postgres asks for a column's parser on every result.
 */
const types: ClientConfig['types'] = {
  getTypeParser: ((oid: number, format?: string) => (oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format as 'text'))) as never,
};

/** How long beyond statementTimeoutMs a query waits for any answer before its connection is closed (a stalled server). */
export const ANSWER_GRACE_MS = 1_000;

/** The settings of a connection without bounds on waits: for the migrations at open and VACUUM, which may rightly run long. */
export function unboundedConfig(options: CheckedOptions): ClientConfig {
  return {
    connectionString: options.connectionString,
    // So an operator (and the connection-loss tests) can find the store's backends in
    // pg_stat_activity; an application_name in the connection string takes precedence.
    application_name: STORE_APPLICATION_NAME,
    types,
    keepAlive: true,
    connectionTimeoutMillis: options.connectTimeoutMs,
  };
}

/**
 * The settings of the pool's and the listener's connections: the server ends a lock wait at
 * lockTimeoutMs and a statement at statementTimeoutMs, and the client gives up on a server that
 * does not answer a little later (node-postgres then closes the connection). The two timeouts
 * are startup parameters, set once per connection as it opens: no statement more in any
 * transaction, so the pipelined round trips stay as they are, and reads outside a transaction
 * are bounded too (a `SET LOCAL` would cover only transactions and cost a statement in each).
 */
export function clientConfig(options: CheckedOptions): ClientConfig {
  return {
    ...unboundedConfig(options),
    lock_timeout: options.lockTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + ANSWER_GRACE_MS,
  };
}

/**
 * The store's pool: its connections' settings, `maxConnections` of them, in pipeline mode, so the
 * statements a transaction issues back to back without waiting for each other's answer (see
 * `runBoth`) go out together, one round trip; a statement awaited alone is sent as before.
 */
export function poolConfig(options: CheckedOptions): PoolConfig {
  return { ...clientConfig(options), max: options.maxConnections, pipeline: true };
}

/** The LISTEN/NOTIFY channel of a schema: gateways on other schemas never hear each other. */
export function channelOf(schema: string): string {
  return `session_state:${schema}`;
}
