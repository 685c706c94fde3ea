// What every command shares: the global `--db` option read from commander, and stdout writers
// for human lines and machine JSON.
import type { Command } from 'commander';

/** The options defined on the program itself and visible to every command. */
export interface GlobalOptions {
  /** The state file: `--db`, else `SESSION_STATE_DB`, else `./session-state.db`. */
  readonly db: string;
}

/** The state file path chosen for this run. */
export function dbPath(command: Command): string {
  return command.optsWithGlobals<GlobalOptions>().db;
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
