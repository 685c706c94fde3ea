// The logger used when the embedder passes none: console, fields only (never content).
import type { LogFields, Logger } from '@session-state/domain';

/** Writes to `console.warn` / `console.error` with a `session-state:` prefix and the fields. */
export const consoleLogger: Logger = {
  warn(fields: LogFields, message: string): void {
    console.warn(`session-state: ${message}`, fields);
  },
  error(fields: LogFields, message: string): void {
    console.error(`session-state: ${message}`, fields);
  },
};
