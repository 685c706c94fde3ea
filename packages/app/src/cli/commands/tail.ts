// `session-state tail <sessionKey>`: follows a session's log as another process appends to it,
// polling the store every 200 ms, until interrupted (SIGINT or SIGTERM), until stdout's reader
// goes away (exit 0), or until the state file is removed or replaced (exit 1).
import fs from 'node:fs';

import { Argument, Option, type Command } from 'commander';
import { asSequence, historyGap, toSessionEvent, type SessionEvent, type SessionKey } from '@session-state/domain';

import { named, parseSequence, parseSessionKey } from '../args';
import { actorLabel, payloadLabel } from '../format';
import { StorageError } from '../errors';
import { isStdoutClosed, stdoutHasClosed, writeLines, writeNote } from '../io';
import { openForReading, stateLocation, type StateLocation } from '../stateLocation';

interface TailOptions {
  readonly since?: number;
  readonly json?: boolean;
}

const POLL_MS = 200;
const PAGE = 200;

/** One followed event as a human line. */
export function tailLine(event: SessionEvent): string {
  const payload = payloadLabel(event.payload);
  return `#${event.sequence}  ${event.occurredAt}  ${event.kind}  ${actorLabel(event)}  ${event.summary}${payload === '' ? '' : `  ${payload}`}`;
}

/** Resolves on the first SIGINT or SIGTERM, and removes its handlers. */
function interrupted(): { readonly promise: Promise<void>; readonly isSet: () => boolean } {
  let set = false;
  const promise = new Promise<void>((resolve) => {
    const stop = (): void => {
      set = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { promise, isSet: () => set };
}

/**
 * A check that the state file being followed is still the one opened: a removed file or one
 * replaced by another (a new inode at the path) ends the tail with an error, since following
 * the old one would show nothing new for ever. A PostgreSQL store has no file to watch.
 */
function fileWatch(location: StateLocation): () => void {
  if (location.kind !== 'sqlite') return () => undefined;
  const { path } = location;
  const opened = fs.statSync(path);
  return () => {
    let now: fs.Stats;
    try {
      now = fs.statSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new StorageError(`the state file ${path} was removed while following it; stopped`);
      throw new StorageError(`cannot check the state file ${path} while following it: ${String(code)}`);
    }
    if (now.ino !== opened.ino || now.dev !== opened.dev) {
      throw new StorageError(`the state file ${path} was replaced by another file while following it; stopped (run tail again to follow the new one)`);
    }
  };
}

/** Adds the `tail` command to the program. */
export function registerTail(program: Command): void {
  program
    .command('tail')
    .description('follow new events of a session as they are appended (Ctrl-C to stop)')
    .addArgument(new Argument('<sessionKey>', 'the session to follow').argParser(named('<sessionKey>', parseSessionKey)))
    .addOption(new Option('--since <N>', 'start after sequence N instead of at the head').argParser(named('--since', parseSequence)))
    .option('--json', 'print one JSON event per line')
    .action(async (sessionKey: string, options: TailOptions, command: Command) => {
      const key = sessionKey as SessionKey;
      const location = stateLocation(command);
      const store = await openForReading(location);
      const checkFile = fileWatch(location);
      const stop = interrupted();
      const stopped = (): boolean => stop.isSet() || isStdoutClosed();
      try {
        const [row] = await store.readHeads([key]);
        let since = asSequence(options.since ?? row?.head ?? 0);
        let gapReported = false;
        writeNote(`following ${sessionKey} after #${since} (Ctrl-C to stop)`);
        while (!stopped()) {
          checkFile();
          const page = await store.readChanges(key, since, PAGE);
          if (!gapReported && historyGap(page.head, since)) {
            gapReported = true;
            writeNote(`history gap: events up to #${page.head.pruneWatermark} were pruned`);
          }
          const events = page.events.map(toSessionEvent);
          writeLines(events.map((event) => (options.json === true ? JSON.stringify({ sessionKey, ...event }) : tailLine(event))));
          const last = page.events[page.events.length - 1];
          if (last !== undefined) since = last.sequence;
          if (page.hasMore) continue;
          await Promise.race([stop.promise, stdoutHasClosed(), new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
        }
      } finally {
        await store.close();
      }
    });
}
