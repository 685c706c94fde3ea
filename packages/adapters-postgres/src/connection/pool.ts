// The store's connection settings: bigint read as number, no search_path (statements name the schema), the pool and the signal channel.
import pg, { type ClientConfig, type PoolConfig } from 'pg';

import type { CheckedOptions } from './options.js';

const INT8_OID = 20;

/** The application_name of the store's pooled connections (`listen`'s is LISTEN_APPLICATION_NAME). */
export const STORE_APPLICATION_NAME = 'session-state';

/** bigint → number: every stored bigint is a sequence or epoch milliseconds, far below 2^53. */
const types: ClientConfig['types'] = {
  getTypeParser: ((oid: number, format?: string) => (oid === INT8_OID && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format as 'text'))) as never,
};

/** How long beyond statementTimeoutMs a query waits for any answer before its connection is closed (a stalled server). */
export const ANSWER_GRACE_MS = 1_000;

/** A connection without bounds on waits: for the migrations at open and VACUUM, which may rightly run long. */
export function unboundedConfig(options: CheckedOptions): ClientConfig {
  // application_name lets an operator find the store's backends; one in the connection string wins.
  return { connectionString: options.connectionString, application_name: STORE_APPLICATION_NAME, types, keepAlive: true, connectionTimeoutMillis: options.connectTimeoutMs };
}

/** The pool's and the listener's connections: the server ends a lock wait at lockTimeoutMs and a statement at statementTimeoutMs (startup
 * parameters, so no statement more per transaction), and the client gives up on a server that does not answer a little later. */
export function clientConfig(options: CheckedOptions): ClientConfig {
  return {
    ...unboundedConfig(options),
    lock_timeout: options.lockTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + ANSWER_GRACE_MS,
  };
}

/** The store's pool, in pipeline mode: statements issued back to back (`runBoth`) go out in one round trip. */
export function poolConfig(options: CheckedOptions): PoolConfig {
  return { ...clientConfig(options), max: options.maxConnections, pipeline: true };
}

/** The LISTEN/NOTIFY channel of a schema: gateways on other schemas never hear each other. */
export function channelOf(schema: string): string {
  return `session_state:${schema}`;
}
