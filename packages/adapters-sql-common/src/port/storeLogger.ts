// Where a SQL store's messages go: the embedder's logger (checked) or the console; identifiers and driver words, never stored content.
import type { CorruptRowInfo, Logger } from '@session-state/domain';

/** The store a message comes from: names its console prefix and its open function. */
type StoreName = 'Sqlite' | 'Postgres';

/** `logger` checked (an object with `warn` and `error` functions), else the console, each message prefixed with the store's name. */
export function storeLogger(store: StoreName, logger: Logger | undefined): Logger {
  if (logger === undefined) {
    const prefix = `session-state ${store.toLowerCase()}:`;
    return {
      warn: (fields, message) => console.warn(`${prefix} ${message}`, fields),
      error: (fields, message) => console.error(`${prefix} ${message}`, fields),
    };
  }
  if (typeof logger !== 'object' || logger === null || typeof logger.warn !== 'function' || typeof logger.error !== 'function') throw new TypeError(`open${store}Store: logger must be an object with warn and error functions, got ${logger === null ? 'null' : typeof logger}`);
  return logger;
}

/** An `onCorruptRow` that warns through `logger`, naming the row (table, sequence, operation, reason), never its content. */
export function logCorruptRow(logger: Logger): (info: CorruptRowInfo) => void {
  return ({ operation, table, sequence, reason }) => logger.warn({ operation, table, reason, ...(sequence !== undefined ? { sequence } : {}) }, `skipped a corrupt ${table} row`);
}

/** The default `onCorruptRow` of a store without a logger: a console warning naming the row, never its content. */
export function warnCorruptRow(store: string): (info: CorruptRowInfo) => void {
  return ({ operation, table, sequence, reason }) =>
    console.warn(`session-state ${store}: skipped a corrupt ${table} row${sequence !== undefined ? ` (sequence ${sequence})` : ''} in ${operation}: ${reason}`);
}
