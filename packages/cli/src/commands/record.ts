// `session-state record <sessionKey> --kind --actor [--by] --summary [--payload JSON]`: appends
// one event through the facade, so watchers' cursors move exactly as in the gateway, and writes
// nothing else (no retention, no restart scan).
import { Option, type Command } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { ActorType, decodeRecordInput, EVENT_KINDS, fromWatermarks, type SessionKey } from '@session-state/domain';

import type { RecordInput } from '@session-state/app';
import { withAwareness } from '../state/awarenessRun.js';
import { checkedOption, named, oneOf, parseJsonObject, sessionKeyArgument } from '../args.js';
import { UsageError } from '../output/errors.js';
import { actorLabel, payloadLabel } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { openForWriting, stateLocation } from '../state/stateLocation.js';

interface RecordOptions extends JsonOption {
  readonly kind: string;
  readonly actor: string;
  readonly by?: string;
  readonly summary: string;
  readonly payload?: Record<string, unknown>;
  readonly dedupeKey?: string;
  readonly onlyIfWatched?: boolean;
  /** False for --no-create. */
  readonly create: boolean;
}

/** The command-line argument behind each field of a record input. */
const ARGUMENT_OF_FIELD: Readonly<Record<string, string>> = {
  sessionKey: '<sessionKey>', kind: '--kind', actorType: '--actor', actorSessionKey: '--by', summary: '--summary',
  payload: '--payload', dedupeKey: '--dedupe-key', onlyIfWatched: '--only-if-watched',
};

/** Builds the facade's record input from the arguments; rejects bad input naming the argument. */
export function recordInputOf(sessionKey: string, options: RecordOptions): RecordInput {
  const input = {
    sessionKey,
    kind: options.kind,
    actorType: options.actor,
    summary: options.summary,
    ...(options.by !== undefined ? { actorSessionKey: options.by } : {}),
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
    ...(options.dedupeKey !== undefined ? { dedupeKey: options.dedupeKey } : {}),
    ...(options.onlyIfWatched === true ? { onlyIfWatched: true } : {}),
  };
  const decoded = decodeRecordInput(input, 'record');
  if (E.isLeft(decoded)) {
    const problem = decoded.left;
    const [, field = '', ...rest] = problem.field.split('.');
    const argument = ARGUMENT_OF_FIELD[field] ?? problem.field;
    const where = rest.length > 0 ? ` (${rest.join('.')})` : '';
    // The library's description of the value (type and size): it may be message content.
    throw new UsageError(argument, `expected ${problem.expected}${where}, got ${problem.value}`);
  }
  // Validated above with the library's own codec, so the kinds and actor types are known ones.
  return input as RecordInput;
}

const ACTOR_TYPES: readonly string[] = Object.keys(ActorType.keys);

/** A required option with a fixed set of values, listed in the help and checked without echoing the value (`.choices()` first: it sets a parser of its own). */
const choiceOption = (flags: string, description: string, choices: readonly string[]): Option =>
  new Option(flags, description).choices(choices).argParser(named(flags.split(' ')[0] ?? flags, oneOf(choices))).makeOptionMandatory();

const WHAT_RECORD_TOUCHES = `
What it writes: the event, its session's head, and the cursors of that session's watchers (as the
gateway would). It never prunes (run "prune" for that) and skips the restart scan, so no other
row changes. This command delivers no notice itself: the watcher's cursor records it as
pending; a running gateway that owns the watcher hears of the commit (on a state file by watching
the file, on a PostgreSQL store by LISTEN/NOTIFY) and queues it then.
--only-if-watched on a session no cursor targets appends nothing; a repeated --dedupe-key
returns the stored event and writes nothing.`;

export function registerRecord(program: Command, { io, out }: RunContext): void {
  program
    .command('record')
    .description('append one event to a session through the library (creates the state file or PostgreSQL schema if needed, and says so)')
    .addArgument(sessionKeyArgument('<sessionKey>', 'the session the event belongs to'))
    .addOption(choiceOption('--kind <kind>', 'the event kind', EVENT_KINDS))
    .addOption(choiceOption('--actor <actorType>', 'who caused it', ACTOR_TYPES))
    .option('--by <sessionKey>', 'the session that caused it (actorSessionKey; never notifies itself)')
    .requiredOption('--summary <text>', 'a one-line summary, never message content')
    .addOption(checkedOption('--payload <json>', 'a small JSON object of metadata, e.g. {"outcome":"timeout"}', parseJsonObject))
    .option('--dedupe-key <key>', 'an at-least-once key: a repeat returns the stored event')
    .option('--only-if-watched', 'write nothing when no cursor targets the session')
    .option('--json', 'print the result as JSON (with "duplicate": true for a repeated --dedupe-key)')
    .option('--no-create', 'refuse to create a missing state file or schema (a mistyped --db fails instead)')
    .addHelpText('after', WHAT_RECORD_TOUCHES)
    .action(async (sessionKey: string, options: RecordOptions, command: Command) => {
      const input = recordInputOf(sessionKey, options);
      const store = await openForWriting(stateLocation(command, io.cwd), { create: options.create, note: out.note });
      await withAwareness(store, out.note, async (awareness) => {
        const result = await awareness.record(input);
        if (!result.ok) throw result.error;
        const watchers = (await store.listCursors({ target: sessionKey as SessionKey })).map((row) => ({
          watcher: row.watcher,
          pending: fromWatermarks(row).status === 'pending',
        }));
        if (result.outcome === 'skipped') {
          out.print(options, { ...result, watchers }, () => [`skipped: ${sessionKey} has no watchers (--only-if-watched); no event appended`]);
          return;
        }
        // A repeated dedupe key returns the stored event and appends nothing.
        const duplicate = awareness.metrics().eventsAppended === 0;
        out.print(options, { ...result, duplicate, watchers }, ({ event }) => {
          const payload = payloadLabel(event.payload);
          const described = `#${event.sequence} ${event.kind} on ${event.sessionKey} by ${actorLabel(event)}${payload === '' ? '' : ` ${payload}`}`;
          return [
            duplicate ? `already recorded as ${described} (same --dedupe-key); nothing written` : `recorded ${described}`,
            ...watchers.map((row) => `  watcher ${row.watcher}: ${row.pending ? 'notice pending' : 'up to date'}`),
          ];
        });
      });
    });
}
