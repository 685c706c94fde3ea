// `session-state tail <sessionKey>`: follows a session's log as another process appends to it,
// polling the store every 200 ms, until interrupted (SIGINT or SIGTERM), until stdout's reader
// goes away (exit 0), or until the state file is removed or replaced (exit 1).
import fs from 'node:fs';

import type { Command } from 'commander';
import { asSequence, historyGap, type SessionEvent, type SessionKey } from '@session-state/domain';

import { checkedOption, parseSequence, sessionKeyArgument } from '../args.js';
import { actorLabel, payloadLabel } from '../output/format.js';
import { StorageError } from '../output/errors.js';
import { interruption, type JsonOption, type RunContext } from '../output/io.js';
import { withStore, type StateLocation } from '../state/stateLocation.js';

const POLL_MS = 200;
const PAGE = 200;

export function tailLine(event: SessionEvent): string {
  const payload = payloadLabel(event.payload);
  return `#${event.sequence}  ${event.occurredAt}  ${event.kind}  ${actorLabel(event)}  ${event.summary}${payload === '' ? '' : `  ${payload}`}`;
}

/**
 * A check that the state file being followed is still the one opened: a removed file or one
 * replaced by another (a new inode at the path) ends the tail with an error, since following
 * the old one would show nothing new for ever. A PostgreSQL store has no file to watch.
 */
function fileWatch(location: StateLocation): () => void {
  if (location.kind !== 'sqlite') return () => undefined;
  const { path, file } = location;
  const opened = fs.statSync(file);
  return () => {
    let now: fs.Stats;
    try {
      now = fs.statSync(file);
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

export function registerTail(program: Command, { io, out }: RunContext): void {
  program
    .command('tail')
    .description('follow new events of a session as they are appended (Ctrl-C to stop)')
    .addArgument(sessionKeyArgument('<sessionKey>', 'the session to follow'))
    .addOption(checkedOption('--since <N>', 'start after sequence N instead of at the head', parseSequence))
    .option('--json', 'print one JSON event per line')
    .action(async (sessionKey: string, options: JsonOption & { readonly since?: number }, command: Command) => {
      const key = sessionKey as SessionKey;
      const stop = interruption(io);
      const stopped = (): boolean => stop.isSet() || out.isClosed();
      await withStore(command, io.cwd, async (store, location) => {
        const checkFile = fileWatch(location);
        const [row] = await store.readHeads([key]);
        let since = asSequence(options.since ?? row?.head ?? 0);
        let gapReported = false;
        out.note(`following ${sessionKey} after #${since} (Ctrl-C to stop)`);
        while (!stopped()) {
          checkFile();
          const page = await store.readChanges(key, since, PAGE).catch((error: unknown) => {
            // The file may have gone between the check and the read: say so, not how the read failed.
            checkFile();
            throw error;
          });
          if (!gapReported && historyGap(page.head, since)) {
            gapReported = true;
            out.note(`history gap: events up to #${page.head.pruneWatermark} were pruned`);
          }
          out.lines(page.events.map((event) => (options.json === true ? JSON.stringify({ sessionKey, ...event }) : tailLine(event))));
          const last = page.events[page.events.length - 1];
          if (last !== undefined) since = asSequence(last.sequence);
          if (page.hasMore) continue;
          await Promise.race([stop.promise, out.closed, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
        }
      }).finally(stop.dispose);
    });
}
