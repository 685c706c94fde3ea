// `session-state record <sessionKey> --kind --actor [--by] --summary [--payload JSON]`: appends
// one event through the facade, so watchers' cursors move exactly as in the gateway, and writes
// nothing else (no retention, no restart scan).
import { Argument, Option, type Command } from 'commander';
import * as E from 'fp-ts/Either';
import { decodeRecordInput, EVENT_KINDS, fromWatermarks, type SessionKey } from '@session-state/domain';

import { createSessionStateAwareness, type RecordInput } from '@session-state/app';
import { createHeldErrorLogger } from '../cliLogger';
import { describeValue } from '../describe';
import { named, parseJsonObject, parseSessionKey } from '../args';
import { UsageError } from '../errors';
import { actorLabel, payloadLabel } from '../format';
import type { RunContext } from '../io';
import { openForWriting, stateLocation } from '../stateLocation';

interface RecordOptions {
  readonly kind: string;
  readonly actor: string;
  readonly by?: string;
  readonly summary: string;
  readonly payload?: Record<string, unknown>;
  readonly dedupeKey?: string;
  readonly onlyIfWatched?: boolean;
  readonly json?: boolean;
}

// --- validation before anything is opened ------------------------------------------------------

/** The command-line argument behind each field of a record input. */
const ARGUMENT_OF_FIELD: Readonly<Record<string, string>> = {
  sessionKey: '<sessionKey>',
  kind: '--kind',
  actorType: '--actor',
  actorSessionKey: '--by',
  summary: '--summary',
  payload: '--payload',
  dedupeKey: '--dedupe-key',
  onlyIfWatched: '--only-if-watched',
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
    // The value as typed, described by type and size: it may be message content.
    const value = [field, ...rest].reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined), input);
    throw new UsageError(argument, `expected ${problem.expected}${where}, got ${describeValue(value)}`);
  }
  // Validated above with the library's own codec, so the kinds and actor types are known ones.
  return input as RecordInput;
}

// --- the command ---------------------------------------------------------------------------------

const WHAT_RECORD_TOUCHES = `
What it writes: the event, its session's head, and the cursors of that session's watchers (as the
gateway would). It never prunes (run "prune" for that) and skips the restart scan, so no other
row changes. This command delivers no notice itself: the watcher's cursor records it as
pending; on a state file the gateway queues it at its next restart scan, and on a PostgreSQL
store a running gateway that owns the watcher is signalled (LISTEN/NOTIFY) and queues it then.
--only-if-watched on a session no cursor targets appends nothing; a repeated --dedupe-key
returns the stored event and writes nothing.`;

/** Adds the `record` command to the program. */
export function registerRecord(program: Command, { io, out }: RunContext): void {
  program
    .command('record')
    .description('append one event to a session through the library (creates the state file or PostgreSQL schema if needed)')
    .addArgument(new Argument('<sessionKey>', 'the session the event belongs to').argParser(named('<sessionKey>', parseSessionKey)))
    .requiredOption('--kind <kind>', `the event kind: ${EVENT_KINDS.join(', ')}`)
    .requiredOption('--actor <actorType>', 'who caused it: human, agent or system')
    .option('--by <sessionKey>', 'the session that caused it (actorSessionKey; never notifies itself)')
    .requiredOption('--summary <text>', 'a one-line summary, never message content')
    .addOption(new Option('--payload <json>', 'a small JSON object of metadata, e.g. {"outcome":"timeout"}').argParser(named('--payload', parseJsonObject)))
    .option('--dedupe-key <key>', 'an at-least-once key: a repeat returns the stored event')
    .option('--only-if-watched', 'write nothing when no cursor targets the session')
    .option('--json', 'print the result as JSON (with "duplicate": true for a repeated --dedupe-key)')
    .addHelpText('after', WHAT_RECORD_TOUCHES)
    .action(async (sessionKey: string, options: RecordOptions, command: Command) => {
      const input = recordInputOf(sessionKey, options);
      const store = await openForWriting(stateLocation(command, io.cwd));
      // A failed append is both logged and returned; the returned error is the one line printed.
      const logger = createHeldErrorLogger(out.note);
      // No restart scan (it would raise the watchers' frozen notices, which only a gateway that
      // delivers them should do) and no prune (the default limits may not be the gateway's).
      const awareness = await createSessionStateAwareness({ store, logger, startup: { restartScan: false, prune: 'off' } });
      let succeeded = false;
      try {
        const result = await awareness.record(input);
        if (!result.ok) throw result.error;
        succeeded = true;
        const watchers = (await store.listCursors({ target: sessionKey as SessionKey })).map((row) => ({
          watcher: row.watcher,
          pending: fromWatermarks(row).status === 'pending',
        }));
        if (result.outcome === 'skipped') {
          if (options.json === true) out.json({ ...result, watchers });
          else out.lines([`skipped: ${sessionKey} has no watchers (--only-if-watched); no event appended`]);
          return;
        }
        // A repeated dedupe key returns the stored event and appends nothing.
        const duplicate = awareness.metrics().eventsAppended === 0;
        if (options.json === true) {
          out.json({ ...result, duplicate, watchers });
          return;
        }
        const event = result.event;
        const payload = payloadLabel(event.payload);
        const described = `#${event.sequence} ${event.kind} on ${event.sessionKey} by ${actorLabel(event)}${payload === '' ? '' : ` ${payload}`}`;
        out.lines([
          duplicate ? `already recorded as ${described} (same --dedupe-key); nothing written` : `recorded ${described}`,
          ...watchers.map((row) => `  watcher ${row.watcher}: ${row.pending ? 'notice pending' : 'up to date'}`),
        ]);
      } finally {
        await awareness.close();
        if (succeeded) logger.release();
      }
    });
}
