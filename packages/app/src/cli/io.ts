// What every command shares: the global `--db` option read from commander, stdout writers for
// human lines and machine JSON that stop quietly once the reader has gone (`list | head -1`),
// and the stderr writer for notes, with the secrets of --db removed.
import type { Command } from 'commander';

import { UsageError } from './errors';
import { redact } from './secrets';
import { DB_ENV } from './stateFile';

/** The options defined on the program itself and visible to every command. */
export interface GlobalOptions {
  /** The state file or PostgreSQL URL: `--db`, else `SESSION_STATE_DB`, else `./session-state.db`. */
  readonly db: string;
  /** The PostgreSQL schema: `--schema`, else `SESSION_STATE_PG_SCHEMA`; undefined when neither is set. */
  readonly schema?: string;
}

/**
 * The state file path (or PostgreSQL URL) chosen for this run; an empty one (`--db ''`,
 * `SESSION_STATE_DB=`) is a usage error, raised before the command prints or opens anything.
 */
export function dbPath(command: Command): string {
  const { db } = command.optsWithGlobals<GlobalOptions>();
  if (db === '') {
    const fromEnv = command.getOptionValueSourceWithGlobals('db') === 'env';
    throw new UsageError('--db', fromEnv ? `${DB_ENV} is set but empty; name a state file` : 'the path is empty; name a state file');
  }
  return db;
}

// --- stdout, and its reader going away -----------------------------------------------------------

let stdoutClosed = false;
let announceClosed: () => void = () => undefined;
const stdoutClosedPromise = new Promise<void>((resolve) => {
  announceClosed = resolve;
});

/** Errors that mean the reader of a pipe or socket has gone: `head` read what it wanted. */
const READER_GONE: ReadonlySet<string> = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

/**
 * Listens for the end of stdout and stderr. A reader that went away (EPIPE) ends the output
 * quietly: later writes are dropped and `stdoutHasClosed` resolves, so a command such as `tail`
 * stops and the process exits 0, as `head` users expect. Any other write error is reported.
 */
export function watchOutputStreams(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!READER_GONE.has(error.code ?? '')) {
      writeNote(`error: cannot write to stdout: ${error.message}`);
      process.exitCode = 1;
    }
    stdoutClosed = true;
    announceClosed();
  });
  // Nothing can be said about a failing stderr; never let it end the process with a stack trace.
  process.stderr.on('error', () => undefined);
}

/** True once stdout's reader has gone. */
export function isStdoutClosed(): boolean {
  return stdoutClosed;
}

/** Resolves when stdout's reader goes away. */
export function stdoutHasClosed(): Promise<void> {
  return stdoutClosedPromise;
}

/** Writes lines to stdout (nothing once its reader has gone). */
export function writeLines(lines: readonly string[]): void {
  if (lines.length > 0 && !stdoutClosed) process.stdout.write(`${lines.join('\n')}\n`);
}

/** Writes one value as indented JSON to stdout (nothing once its reader has gone). */
export function writeJson(value: unknown): void {
  if (!stdoutClosed) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

// --- stderr ---------------------------------------------------------------------------------------

/** Writes one diagnostic line to stderr (progress and warnings, never data), without the secrets of --db. */
export function writeNote(line: string): void {
  process.stderr.write(`${redact(line)}\n`);
}
