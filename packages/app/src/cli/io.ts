// What every command shares: the global `--db` option read from commander, and stdout writers
// for human lines and machine JSON.
import type { Command } from 'commander';

import { UsageError } from './errors';
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

/** Writes lines to stdout. */
export function writeLines(lines: readonly string[]): void {
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}

/** Writes one value as indented JSON to stdout. */
export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes one diagnostic line to stderr (progress and warnings, never data). */
export function writeNote(line: string): void {
  process.stderr.write(`${line}\n`);
}
