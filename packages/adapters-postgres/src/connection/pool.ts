// The store's connection settings: bigint read as number, no search_path (statements name the schema), unbounded connections, the signal channel.
import pg, { type ClientConfig, type PoolConfig } from 'pg';

import type { CheckedOptions } from './options.js';

/** bigint (type oid 20) → number: every stored bigint is a sequence or epoch milliseconds, far below 2^53. */
const types: ClientConfig['types'] = {
  getTypeParser: ((oid: number, format?: string) => (oid === 20 && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format as 'text'))) as never,
};

/** A connection without bounds on waits: for the migrations at open and VACUUM, which may rightly run long. */
export function unboundedConfig(options: CheckedOptions): ClientConfig {
  // application_name lets an operator find the store's backends (`listen`'s is LISTEN_APPLICATION_NAME); one in the connection string wins.
  return { connectionString: options.connectionString, application_name: 'session-state', types, keepAlive: true, connectionTimeoutMillis: options.connectTimeoutMs };
}

/** Runs `work` on a connection of its own with `unboundedConfig`, closed after. */
export async function withUnboundedClient<T>(config: ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  // A connection lost here rejects the query under way; unheard, its 'error' would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The pool's and the listener's connections: the server ends a lock wait at lockTimeoutMs and a statement at statementTimeoutMs (startup
 * parameters, so no statement more per transaction), and the client gives up on a server that does not answer a second later. */
export function clientConfig(options: CheckedOptions): ClientConfig {
  return { ...unboundedConfig(options), lock_timeout: options.lockTimeoutMs, statement_timeout: options.statementTimeoutMs, query_timeout: options.statementTimeoutMs + 1_000 };
}

/** The store's pool, in pipeline mode: statements issued back to back (`runBoth`) go out in one round trip. */
export function poolConfig(options: CheckedOptions): PoolConfig {
  return { ...clientConfig(options), max: options.maxConnections, pipeline: true };
}

/** The LISTEN/NOTIFY channel of a schema: gateways on other schemas never hear each other. */
export const channelOf = (schema: string): string => `session_state:${schema}`;
