// The logger ports: console when the embedder passes none, and a guard so a throwing logger
// never breaks the operation it reports on.
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

/** The logger with every throw swallowed: nothing sensible is left to report to. */
export function safeLogger(inner: Logger): Logger {
  const guarded =
    (level: 'warn' | 'error') =>
    (fields: LogFields, message: string): void => {
      try {
        inner[level](fields, message);
      } catch {
        // ignored
      }
    };
  return { warn: guarded('warn'), error: guarded('error') };
}
