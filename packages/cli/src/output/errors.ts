// How the command-line tool fails: usage errors exit 2 with one line naming the argument, any
// other failure (storage, a broken file) exits 1; both print one `error: …` line on stderr
// through the run's note writer, which removes the secrets of --db.
import { CommanderError } from 'commander';
import { failureMessage, isStoreError } from '@session-state/domain';

/** The process exit statuses of `session-state`. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * A bad argument, option or environment value, found before anything is opened or written;
 * `argument` is as the user typed it: `--since`, `<sessionKey>`, `--db`.
 *
 * @example throw new UsageError('--since', 'expected a non-negative integer, got "x"')
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(argument: string, problem: string) {
    super(`${argument}: ${problem}`);
  }
}

/**
 * A failure of the store or the file system that the command already described in full (which
 * file, what went wrong); printed as it is, exit status 1.
 *
 * @example throw new StorageError('cannot read the state file s.db: permission denied (EACCES)')
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';
}

const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/gu, ' ').trim();

/**
 * Prints the error (unless commander already did) and returns the exit status for it.
 * Commander's own parse errors (unknown option, missing argument, invalid value) become usage
 * errors; an asked-for help (`--help`, `help`) or version keeps status 0, while the help commander
 * shows for a missing command (it exits non-zero) is a usage error. `writeErr` prints one stderr
 * line with the secrets of --db removed.
 */
export function reportError(error: unknown, writeErr: (line: string) => void): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its one-line message, or the help or version asked for.
    if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
    // No command was given: commander printed the help to stderr and asked for a failure.
    if (error.code === 'commander.help') writeErr('error: a command is required (see the commands above)');
    return EXIT.usage;
  }
  if (error instanceof UsageError) {
    writeErr(`error: ${oneLine(error.message)}`);
    return EXIT.usage;
  }
  const message = isStoreError(error) ? `storage failed during ${error.operation}: ${error.message}` : failureMessage(error);
  writeErr(`error: ${oneLine(message)}`);
  return EXIT.failure;
}
