// Where the store's own messages go: the `logger` option, or the console when none is given.
// Messages carry identifiers and the driver's words, never stored content.
import type { CorruptRowInfo, LogFields, Logger } from '@session-state/domain';

const PREFIX = 'session-state postgres:';

/** The default logger: console.warn / console.error, with the fields. */
export const consoleLogger: Logger = {
  warn: (fields: LogFields, message: string) => console.warn(`${PREFIX} ${message}`, fields),
  error: (fields: LogFields, message: string) => console.error(`${PREFIX} ${message}`, fields),
};

/** The default `onCorruptRow`: a warning naming the row (table, sequence, operation, reason), never its content. */
export function logCorruptRow(logger: Logger): (info: CorruptRowInfo) => void {
  return ({ operation, table, sequence, reason }) => logger.warn({ operation, table, reason, ...(sequence !== undefined ? { sequence } : {}) }, `skipped a corrupt ${table} row`);
}
