#!/usr/bin/env node
// The `session-state` command-line tool: the commander program, made of CliCommands; `main(argv, io)`, the in-process
// entry that maps failures to exit statuses (2 for usage errors, 1 otherwise); and the bin's `runOnProcess`.
import { Command, Help, Option } from 'commander';

import { EXIT, reportError } from './output/errors.js';
import { createOutput, processIo, type CliIo, type CliStream, type RunContext } from './output/io.js';
import { dbValuesOf, redactorFor } from './state/secrets.js';
import { DB_ENV, DEFAULT_DB_PATH, HELP_DEFAULT_SCHEMA, SCHEMA_ENV } from './state/stateLocation.js';
import { packageVersion } from './toolCommand.js';

const WHERE_STATE_LIVES = `
Where the state lives (--db):
  a file path       a SQLite state file, the embedded store of one gateway
  postgres://user:password@host:5432/database (or postgresql://)
                    a PostgreSQL store that several gateways share; --schema picks its schema.
                    Messages never show the password (user:***@).
status, list, cursors, explain, tail, schema, prune, reset, delete, mcp, hook and inspect need an
existing store: they never create a file or a schema. record is the one command that creates and
migrates one when missing, and says so on stderr (--no-create refuses instead). demo only runs on a
file, since it deletes and recreates its state.`;

/** Help text that marks a required option "(required)" after commander's own description. */
function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  return option.mandatory ? `${text} (required)` : text;
}

/**
 * A commander Command with the tool's conventions: global options (--db, --schema) listed in
 * every command's help, required options marked there, and every missing one reported at once.
 *
 * @example new CliCommand('session-state').command('record').requiredOption('--kind <kind>')
 */
export class CliCommand extends Command {
  constructor(name?: string) {
    super(name);
    this.configureHelp({ showGlobalOptions: true, optionDescription });
  }

  override createCommand(name?: string): CliCommand {
    return new CliCommand(name);
  }

  /**
   * Commander calls this for the first required option it finds unset; the error names every
   * required option still unset, so the user fixes the command line once, not once per option.
   */
  missingMandatoryOptionValue(): never {
    const missing = this.options
      .filter((option) => option.mandatory && this.getOptionValue(option.attributeName()) === undefined)
      .map((option) => `'${option.flags}'`);
    const noun = missing.length === 1 ? 'option' : 'options';
    return this.error(`error: required ${noun} ${missing.join(', ')} not specified`, { code: 'commander.missingMandatoryOptionValue' });
  }
}

type Register = (program: Command, run: RunContext) => void;

/**
 * The commands in the order the help lists them, each module loaded only when a run needs it: a
 * run naming one command loads that one (a cold `status` loads no other command's code); help,
 * completion, no command or an unknown one load them all.
 */
const COMMANDS: readonly (readonly [names: readonly string[], load: () => Promise<Register>])[] = [
  [['demo'], async () => (await import('./commands/demo.js')).registerDemo],
  [['status'], async () => (await import('./commands/status.js')).registerStatus],
  [['list'], async () => (await import('./commands/list.js')).registerList],
  [['cursors'], async () => (await import('./commands/cursors.js')).registerCursors],
  [['explain'], async () => (await import('./commands/explain.js')).registerExplain],
  [['record'], async () => (await import('./commands/record.js')).registerRecord],
  [['prune'], async () => (await import('./commands/prune.js')).registerPrune],
  [['tail'], async () => (await import('./commands/tail.js')).registerTail],
  [['mcp'], async () => (await import('./commands/mcp.js')).registerMcp],
  [['hook'], async () => (await import('./commands/hook.js')).registerHook],
  [['inspect'], async () => (await import('./commands/inspect.js')).registerInspect],
  [['reset', 'delete'], async () => (await import('./commands/cleanup.js')).registerCleanupCommands],
  [['schema'], async () => (await import('./commands/schema.js')).registerSchema],
  [['completion'], async () => (await import('./commands/completion.js')).registerCompletion],
  [['help'], async () => (await import('./commands/help.js')).registerHelp],
];

/** The command the first word of `argv` names, after the global options. */
function commandNamed(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--db' || argv[i] === '--schema') i += 1;
    else if (!argv[i]?.startsWith('-')) return argv[i];
  }
  return undefined;
}

/** The registrations a run of `argv` needs: the command it names, else all. */
async function commandsFor(argv: readonly string[]): Promise<Register[]> {
  const named = commandNamed(argv);
  const one = COMMANDS.filter(([names]) => named !== 'help' && named !== 'completion' && names.includes(named as string));
  return Promise.all((one.length > 0 ? one : COMMANDS).map(([, load]) => load()));
}

/** The terminal's width for the help, or commander's 80 columns when the stream is not a terminal. */
const helpWidthOf = (stream: CliStream): number => (stream.isTTY === true ? stream.columns : undefined) ?? 80;

/** Sets --db and --schema from the run's environment where the command line left them unset. */
function applyEnvironment(program: Command, env: CliIo['env']): void {
  for (const [name, variable] of [['db', DB_ENV], ['schema', SCHEMA_ENV]] as const) {
    const value = env[variable];
    const source = program.getOptionValueSource(name);
    if (value !== undefined && (source === undefined || source === 'default')) program.setOptionValueWithSource(name, value, 'env');
  }
}

/**
 * Builds the program for one run with `commands` registered; commands added with `program.command` inherit its error
 * handling. Commander's own output (help, version, its messages) goes to the run's streams, its
 * messages through the same redaction as ours, and the environment is read from `run.io.env`.
 */
export function buildProgram(run: RunContext, commands: readonly Register[]): Command {
  const { io, out } = run;
  const program = new CliCommand('session-state')
    .description('Inspect and drive session state (a SQLite state file or a shared PostgreSQL store): the signal log, watcher cursors and notices.')
    .version(packageVersion())
    .addOption(new Option('--db <path|url>', `the SQLite state file, or the postgres:// URL of a PostgreSQL store; env ${DB_ENV}`).default(DEFAULT_DB_PATH))
    .addOption(new Option('--schema <name>', `the PostgreSQL schema holding the store (default: ${HELP_DEFAULT_SCHEMA}); only with a postgres:// --db; env ${SCHEMA_ENV}`))
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(out.redact(text)),
      outputError: (text, write) => write(out.redact(text)),
      getOutHelpWidth: () => helpWidthOf(io.stdout),
      getErrHelpWidth: () => helpWidthOf(io.stderr),
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .showSuggestionAfterError(true)
    .addHelpText('after', WHERE_STATE_LIVES)
    .addHelpText('after', `\nExit status: ${EXIT.ok} ok, ${EXIT.failure} failure (storage, connection), ${EXIT.usage} bad arguments or no state file (or schema).`)
    .hook('preSubcommand', () => applyEnvironment(program, io.env));
  for (const register of commands) register(program, run);
  return program;
}

/**
 * Runs the tool on `argv` (the arguments after the program name, as `process.argv.slice(2)`)
 * with `io` as its whole world, and resolves with its exit status (0 ok, 1 failure, 2 usage);
 * it never exits, sets `process.exitCode`, or reads `process.env`, `process.cwd()` or the
 * process's streams (the bin passes them in as `processIo()`). Every --db value of the arguments
 * and the environment is registered first, so no message shows its secrets.
 *
 * @example const status = await main(['status', 'agent:main:main', '--json'], processIo());
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const out = createOutput(io, redactorFor(dbValuesOf(argv, io.env[DB_ENV])));
  let status = await commandsFor(argv)
    .then((commands) => buildProgram({ io, out }, commands).parseAsync([...argv], { from: 'user' }))
    .then(() => EXIT.ok, (error: unknown) => reportError(error, out.note));
  // A failed write to stdout is reported on the next turn of the event loop; let it land first.
  await new Promise((resolve) => setImmediate(resolve));
  status = out.hasFailed() ? Math.max(status, EXIT.failure) : status;
  // A hook host reads exit status 2 as "block the turn": a hook's usage error is a failure like any other.
  return status === EXIT.usage && commandNamed(argv) === 'hook' ? EXIT.failure : status;
}

/** Runs the tool on this process (its arguments, streams and environment) and sets its exit status: what the bin does. */
export function runOnProcess(): void {
  const argv = process.argv.slice(2);
  void main(argv, processIo()).then((status) => {
    process.exitCode = status;
    // A hook that gave up on a store must still end: a connection still being tried would hold the process.
    if (commandNamed(argv) === 'hook') setTimeout(() => process.exit(), 100).unref();
  });
}

