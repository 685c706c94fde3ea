#!/usr/bin/env node
// The `session-state` command-line tool: the commander program over a SQLite state file, and
// the entry point that maps failures to exit statuses (2 for usage errors, 1 otherwise).
import fs from 'node:fs';
import path from 'node:path';

import { Command, Option } from 'commander';

import { registerCursors } from './commands/cursors';
import { registerDemo } from './commands/demo';
import { registerList } from './commands/list';
import { registerPrune } from './commands/prune';
import { registerRecord } from './commands/record';
import { registerStatus } from './commands/status';
import { registerTail } from './commands/tail';
import { EXIT, reportError } from './errors';
import { DB_ENV, DEFAULT_DB_PATH } from './stateFile';

function packageVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Builds the program; commands added with `program.command` inherit its error handling. */
export function buildProgram(): Command {
  const program = new Command('session-state')
    .description('Inspect and drive a session-state file: the signal log, watcher cursors and notices.')
    .version(packageVersion())
    .addOption(new Option('--db <path>', 'the SQLite state file').env(DB_ENV).default(DEFAULT_DB_PATH))
    .exitOverride()
    .showSuggestionAfterError(false)
    .addHelpText('after', `\nExit status: ${EXIT.ok} ok, ${EXIT.failure} failure (storage), ${EXIT.usage} bad arguments or no state file.`);
  registerDemo(program);
  registerStatus(program);
  registerList(program);
  registerCursors(program);
  registerRecord(program);
  registerPrune(program);
  registerTail(program);
  return program;
}

/** Runs the tool on `argv` (as `process.argv`) and resolves with its exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, (line) => process.stderr.write(`${line}\n`));
  }
}

if (require.main === module) {
  void main(process.argv).then((status) => {
    process.exitCode = status;
  });
}
