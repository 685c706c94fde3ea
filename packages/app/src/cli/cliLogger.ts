// The logger port for the command-line tool: one `warning:` / `error:` line per report on
// stderr, fields as key=value (the library never puts message content in them).
import type { LogFields, Logger } from '@session-state/domain';

import { writeNote } from './io';

function render(message: string, fields?: LogFields): string {
  const parts = Object.entries(fields ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`);
  return parts.length === 0 ? message : `${message} (${parts.join(', ')})`;
}

/** A Logger writing single lines to stderr. */
export function createCliLogger(): Logger {
  return {
    warn: (message, fields) => writeNote(`warning: ${render(message, fields)}`),
    error: (message, fields) => writeNote(`error: ${render(message, fields)}`),
  };
}
