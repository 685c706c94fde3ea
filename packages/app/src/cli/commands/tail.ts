// `session-state tail <sessionKey>`: follows a session's log as another process appends to it,
// polling the store every 200 ms, until interrupted (SIGINT or SIGTERM).
import { Argument, Option, type Command } from 'commander';
import { asSequence, historyGap, toSessionEvent, type SessionEvent, type SessionKey } from '@session-state/domain';

import { parseSequence, parseSessionKey } from '../args';
import { actorLabel, payloadLabel } from '../format';
import { writeLines, writeNote } from '../io';
import { openForReading, stateLocation } from '../stateLocation';

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

/** Adds the `tail` command to the program. */
export function registerTail(program: Command): void {
  program
    .command('tail')
    .description('follow new events of a session as they are appended (Ctrl-C to stop)')
    .addArgument(new Argument('<sessionKey>', 'the session to follow').argParser(parseSessionKey))
    .addOption(new Option('--since <N>', 'start after sequence N instead of at the head').argParser(parseSequence))
    .option('--json', 'print one JSON event per line')
    .action(async (sessionKey: string, options: TailOptions, command: Command) => {
      const key = sessionKey as SessionKey;
      const store = await openForReading(stateLocation(command));
      const stop = interrupted();
      try {
        const [row] = await store.readHeads([key]);
        let since = asSequence(options.since ?? row?.head ?? 0);
        let gapReported = false;
        writeNote(`following ${sessionKey} after #${since} (Ctrl-C to stop)`);
        while (!stop.isSet()) {
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
          await Promise.race([stop.promise, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
        }
      } finally {
        await store.close();
      }
    });
}
