// Where the store's own messages go: the `logger` option, or the console when none is given.
// Messages carry identifiers and the driver's words, never stored content.
import type { CorruptRowInfo, LogFields, Logger } from '@session-state/domain';

const PREFIX = 'session-state postgres:';

/** The default logger: console.warn / console.error, with the fields when there are any. */
export const consoleLogger: Logger = {
  warn: (message: string, fields?: LogFields) => (fields === undefined ? console.warn(`${PREFIX} ${message}`) : console.warn(`${PREFIX} ${message}`, fields)),
  error: (message: string, fields?: LogFields) => (fields === undefined ? console.error(`${PREFIX} ${message}`) : console.error(`${PREFIX} ${message}`, fields)),
};

/** The default `onCorruptRow`: a warning naming the row (table, sequence, operation, reason), never its content. */
export function logCorruptRow(logger: Logger): (info: CorruptRowInfo) => void {
  return ({ operation, table, sequence, reason }) => logger.warn(`skipped a corrupt ${table} row`, { operation, table, reason, ...(sequence !== undefined ? { sequence } : {}) });
}
