// The logger port for the command-line tool: one `warning:` / `error:` line per report on
// stderr, fields as key=value (the library never puts message content in them); and a logger
// that holds its errors back for a command that reports its own failure in one line.
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

/**
 * A Logger for a command that reports its own failure: the library logs a failed operation and
 * also returns it, and the command prints the returned error as its one `error:` line, so the
 * logged copy is dropped then. When the command succeeds, `release` prints the held errors as
 * warnings (something went wrong on the side).
 */
export function createHeldErrorLogger(writeNote: (line: string) => void): Logger & { release(): void } {
  const held: string[] = [];
  return {
    ...createCliLogger(writeNote),
    error: (fields, message) => void held.push(render(fields, message)),
    release: () => {
      for (const line of held.splice(0)) writeNote(`warning: ${line}`);
    },
  };
}
