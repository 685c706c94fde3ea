// `session-state reset <watcher>` and `session-state delete <session>`: the facade's cleanup
// methods on an existing store (neither creates one). reset (sessionReset) forgets what a
// watcher watches: its cursors and their notices go, events stay. delete (sessionDeleted) removes
// a session's events and every cursor from or to it, with their notices.
import type { Command } from 'commander';
import type { SessionStateAwareness } from '@session-state/app';
import type { SessionKey, StateStore } from '@session-state/domain';

import { sessionKeyArgument } from '../args.js';
import { withAwareness } from '../state/awarenessRun.js';
import { plural } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { openExisting, stateLocation } from '../state/stateLocation.js';

/** Runs the facade's sessionReset, counting the watcher's cursors first. */
async function reset(store: StateStore, awareness: SessionStateAwareness, watcher: string) {
  const cursorsRemoved = (await store.listCursors({ watcher: watcher as SessionKey })).length;
  await awareness.sessionReset(watcher);
  const line = cursorsRemoved === 0 ? `reset ${watcher}: it watched nothing; nothing removed` : `reset ${watcher}: removed its ${plural(cursorsRemoved, 'cursor')} (and their notices)`;
  return { json: { watcher, cursorsRemoved }, line };
}

/**
 * Runs the facade's sessionDeleted, reading the session's head (0 when it had no events) and
 * cursors first; `exists` is false when the store knew nothing of the session.
 */
async function deleteSession(store: StateStore, awareness: SessionStateAwareness, sessionKey: string) {
  const key = sessionKey as SessionKey;
  const [heads, watching, watched] = await Promise.all([store.readHeads([key]), store.listCursors({ watcher: key }), store.listCursors({ target: key })]);
  await awareness.sessionDeleted(sessionKey);
  // A cursor of the session on itself is in both lists.
  const cursorsRemoved = new Set([...watching, ...watched].map((row) => `${row.watcher} ${row.target}`)).size;
  const exists = heads.length > 0 || cursorsRemoved > 0;
  const head = heads[0]?.head ?? 0;
  const line = exists
    ? `deleted ${sessionKey}: its events (head was #${head}) and ${plural(cursorsRemoved, 'cursor')} from or to it`
    : `delete ${sessionKey}: no such session in this store; nothing removed`;
  return { json: { sessionKey, exists, head, cursorsRemoved }, line };
}

/** A cleanup: the facade call on `sessionKey`, with its JSON answer and its one human line. */
type Cleanup = (store: StateStore, awareness: SessionStateAwareness, sessionKey: string) => Promise<{ json: object; line: string }>;

export function registerCleanupCommands(program: Command, { io, out }: RunContext): void {
  const register = (name: string, description: string, argument: string, argumentDescription: string, run: Cleanup): void => {
    program
      .command(name)
      .description(description)
      .addArgument(sessionKeyArgument(argument, argumentDescription))
      .option('--json', 'print what was removed as JSON')
      .action(async (sessionKey: string, options: JsonOption, command: Command) => {
        const store = await openExisting(stateLocation(command, io.cwd), true);
        const { json, line } = await withAwareness(store, out.note, (awareness) => run(store, awareness, sessionKey));
        out.print(options, json, () => [line]);
      });
  };
  register('reset', 'forget what a watcher watches (sessionReset): its cursors and their pending notices go; events stay', '<watcher>', 'the watching session to reset', reset);
  register('delete', 'delete a session (sessionDeleted): its events, and every cursor from or to it with their notices', '<session>', 'the session to delete', deleteSession);
}
