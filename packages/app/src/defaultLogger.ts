// The logger used when the embedder passes none: console, fields only (never content).
import type { LogFields, Logger } from '@session-state/domain';

/** Writes to `console.warn` / `console.error` with a `session-state:` prefix and the fields. */
export const consoleLogger: Logger = {
  warn(message: string, fields?: LogFields): void {
    console.warn(`session-state: ${message}`, fields ?? {});
  },
  error(message: string, fields?: LogFields): void {
    console.error(`session-state: ${message}`, fields ?? {});
  },
};
