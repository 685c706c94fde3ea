// The connection settings every connection of a store uses: the store's schema first on the
// search_path, and bigint columns (sequences, clock milliseconds) read as JavaScript numbers.
import pg, { type ClientConfig } from 'pg';

import type { CheckedOptions } from './options';

const INT8_OID = 20;

/** bigint → number: every stored bigint is a sequence or epoch milliseconds, far below 2^53. */
const types: ClientConfig['types'] = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as never,
};

export function clientConfig(options: CheckedOptions): ClientConfig {
  return {
    connectionString: options.connectionString,
    // The schema name is checked ([a-z_][a-z0-9_]*), so it needs no quoting here.
    options: `-c search_path=${options.schema}`,
    types,
    keepAlive: true,
    connectionTimeoutMillis: options.connectTimeoutMs,
  };
}

/** The LISTEN/NOTIFY channel of a schema: gateways on other schemas never hear each other. */
export function channelOf(schema: string): string {
  return `session_state:${schema}`;
}
