// The logger port for the command-line tool: one `warning:` / `error:` line per report on
// stderr, fields as key=value (the library never puts message content in them).
import type { LogFields, Logger } from '@session-state/domain';

function render(fields: LogFields, message: string): string {
  const parts = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`);
  return parts.length === 0 ? message : `${message} (${parts.join(', ')})`;
}

/** A Logger writing single lines to stderr through `writeNote` (the run's `Output.note`). */
export function createCliLogger(writeNote: (line: string) => void): Logger {
  return {
    warn: (fields, message) => writeNote(`warning: ${render(fields, message)}`),
    error: (fields, message) => writeNote(`error: ${render(fields, message)}`),
  };
}

