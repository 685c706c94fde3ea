// `session-state reset <watcher>` and `session-state delete <session>`: the facade's cleanup
// methods on an existing store (neither creates one). reset (sessionReset) forgets what a
// watcher watches: its cursors and their notices go, events stay. delete (sessionDeleted) removes
// a session's events and every cursor from or to it, with their notices.
import { Argument, type Command } from 'commander';
import type { SessionStateAwareness } from '@session-state/app';
import type { SessionKey, StateStore } from '@session-state/domain';

import { named, parseSessionKey } from '../args.js';
import { withAwareness } from '../state/awarenessRun.js';
import { plural } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { openExistingForWriting, stateLocation } from '../state/stateLocation.js';

/** Runs the facade's sessionReset, counting the watcher's cursors first. */
async function reset(store: StateStore, awareness: SessionStateAwareness, watcher: string) {
  const cursors = await store.listCursors({ watcher: watcher as SessionKey });
  await awareness.sessionReset(watcher);
  return { watcher, cursorsRemoved: cursors.length };
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
  const pairs = new Set([...watching, ...watched].map((row) => `${row.watcher} ${row.target}`));
  return { sessionKey, exists: heads.length > 0 || pairs.size > 0, head: heads[0]?.head ?? 0, cursorsRemoved: pairs.size };
}

export function resetLines({ watcher, cursorsRemoved }: Awaited<ReturnType<typeof reset>>): string[] {
  if (cursorsRemoved === 0) return [`reset ${watcher}: it watched nothing; nothing removed`];
  return [`reset ${watcher}: removed its ${plural(cursorsRemoved, 'cursor')} (and their notices)`];
}

export function deleteLines({ sessionKey, exists, head, cursorsRemoved }: Awaited<ReturnType<typeof deleteSession>>): string[] {
  if (!exists) return [`delete ${sessionKey}: no such session in this store; nothing removed`];
  return [`deleted ${sessionKey}: its events (head was #${head}) and ${plural(cursorsRemoved, 'cursor')} from or to it`];
}

/** One cleanup command: its name, help, argument, the facade call and its human form. */
interface Cleanup<T> {
  readonly name: string;
  readonly description: string;
  readonly argument: string;
  readonly argumentDescription: string;
  readonly run: (store: StateStore, awareness: SessionStateAwareness, sessionKey: string) => Promise<T>;
  readonly lines: (summary: T) => string[];
}

function registerCleanup<T>(program: Command, { io, out }: RunContext, cleanup: Cleanup<T>): void {
  program
    .command(cleanup.name)
    .description(cleanup.description)
    .addArgument(new Argument(cleanup.argument, cleanup.argumentDescription).argParser(named(cleanup.argument, parseSessionKey)))
    .option('--json', 'print what was removed as JSON')
    .action(async (sessionKey: string, options: JsonOption, command: Command) => {
      const store = await openExistingForWriting(stateLocation(command, io.cwd));
      out.print(options, await withAwareness(store, out.note, (awareness) => cleanup.run(store, awareness, sessionKey)), cleanup.lines);
    });
}

export function registerCleanupCommands(program: Command, run: RunContext): void {
  registerCleanup(program, run, {
    name: 'reset',
    description: 'forget what a watcher watches (sessionReset): its cursors and their pending notices go; events stay',
    argument: '<watcher>',
    argumentDescription: 'the watching session to reset',
    run: reset,
    lines: resetLines,
  });
  registerCleanup(program, run, {
    name: 'delete',
    description: 'delete a session (sessionDeleted): its events, and every cursor from or to it with their notices',
    argument: '<session>',
    argumentDescription: 'the session to delete',
    run: deleteSession,
    lines: deleteLines,
  });
}
