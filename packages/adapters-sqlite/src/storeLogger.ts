// Where the SQLite store says what it noticed (a state file moved under it, a prune caller that
// repeats itself): the embedder's logger (the domain's Logger port), or the console by default.
import type { LogFields, Logger } from '@session-state/domain';

/** The default: console, fields only, never a row's content. */
const consoleStoreLogger: Logger = {
  warn: (fields: LogFields, message: string) => console.warn(`session-state sqlite: ${message}`, fields),
  error: (fields: LogFields, message: string) => console.error(`session-state sqlite: ${message}`, fields),
};

/** `logger` checked (an object with `warn` and `error` functions), else the console logger. */
export function storeLogger(logger: Logger | undefined): Logger {
  if (logger === undefined) return consoleStoreLogger;
  if (typeof logger !== 'object' || logger === null || typeof logger.warn !== 'function' || typeof logger.error !== 'function') {
    throw new TypeError(`openSqliteStore: logger must be an object with warn and error functions, got ${logger === null ? 'null' : typeof logger}`);
  }
  return logger;
}
