#!/usr/bin/env node
// The `session-state` command-line tool: the commander program over a SQLite state file or a
// PostgreSQL store that several gateways share, and the entry point that maps failures to exit
// statuses (2 for usage errors, 1 otherwise).
import fs from 'node:fs';
import path from 'node:path';

import { Command, Option } from 'commander';
import { DEFAULT_SCHEMA } from '@session-state/adapters-postgres';

import { registerCursors } from './commands/cursors';
import { registerDemo } from './commands/demo';
import { registerList } from './commands/list';
import { registerPrune } from './commands/prune';
import { registerRecord } from './commands/record';
import { registerStatus } from './commands/status';
import { registerTail } from './commands/tail';
import { EXIT, reportError } from './errors';
import { watchOutputStreams } from './io';
import { SCHEMA_ENV } from './postgresState';
import { dbValuesOf, protectSecretsOf, redact } from './secrets';
import { DB_ENV, DEFAULT_DB_PATH } from './stateFile';

function packageVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const WHERE_STATE_LIVES = `
Where the state lives (--db):
  a file path       a SQLite state file, the embedded store of one gateway
  postgres://user:password@host:5432/database (or postgresql://)
                    a PostgreSQL store that several gateways share; --schema picks its schema.
                    Messages never show the password (user:***@).
status, list, cursors, tail and prune need an existing store: they never create a file or a
schema. record creates and migrates one when missing. demo only runs on a file, since it
deletes and recreates its state.`;

/** Builds the program; commands added with `program.command` inherit its error handling. */
export function buildProgram(): Command {
  const program = new Command('session-state')
    .description('Inspect and drive session state (a SQLite state file or a shared PostgreSQL store): the signal log, watcher cursors and notices.')
    .version(packageVersion())
    .addOption(new Option('--db <path|url>', 'the SQLite state file, or the postgres:// URL of a PostgreSQL store').env(DB_ENV).default(DEFAULT_DB_PATH))
    .addOption(new Option('--schema <name>', `the PostgreSQL schema holding the store (default: ${DEFAULT_SCHEMA}); only with a postgres:// --db`).env(SCHEMA_ENV))
    .exitOverride()
    // Commander's own messages pass through the same redaction as ours.
    .configureOutput({ writeErr: (text) => process.stderr.write(redact(text)), outputError: (text, write) => write(redact(text)) })
    .showSuggestionAfterError(false)
    .addHelpText('after', WHERE_STATE_LIVES)
    .addHelpText('after', `\nExit status: ${EXIT.ok} ok, ${EXIT.failure} failure (storage, connection), ${EXIT.usage} bad arguments or no state file (or schema).`);
  registerDemo(program);
  registerStatus(program);
  registerList(program);
  registerCursors(program);
  registerRecord(program);
  registerPrune(program);
  registerTail(program);
  return program;
}

/**
 * Runs the tool on `argv` (as `process.argv`) and resolves with its exit status. Every --db
 * value of the arguments and the environment is registered first, so no message shows its secrets.
 */
export async function main(argv: readonly string[]): Promise<number> {
  protectSecretsOf(dbValuesOf(argv, process.env[DB_ENV]));
  try {
    await buildProgram().parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, (line) => process.stderr.write(`${line}\n`));
  }
}

if (require.main === module) {
  watchOutputStreams();
  void main(process.argv).then((status) => {
    process.exitCode = status;
  });
}
