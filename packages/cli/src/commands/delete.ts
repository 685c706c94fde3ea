// `session-state delete <session>`: the facade's sessionDeleted on an existing store: the
// session's events, and every cursor from or to it (with their notices), go.
import { Argument, type Command } from 'commander';
import type { SessionKey } from '@session-state/domain';

import { named, parseSessionKey } from '../args';
import { withAwareness } from '../awarenessRun';
import type { RunContext } from '../io';
import { openExistingForWriting, stateLocation } from '../stateLocation';

/** What a delete removed; `exists` is false when the store knew nothing of the session. */
export interface DeleteSummary {
  readonly sessionKey: string;
  readonly exists: boolean;
  /** The session's head before the delete (0 when it had no events). */
  readonly head: number;
  readonly cursorsRemoved: number;
}

/** The human form of a delete. */
export function deleteLines({ sessionKey, exists, head, cursorsRemoved }: DeleteSummary): string[] {
  if (!exists) return [`delete ${sessionKey}: no such session in this store; nothing removed`];
  const cursors = `${cursorsRemoved} cursor${cursorsRemoved === 1 ? '' : 's'} from or to it`;
  return [`deleted ${sessionKey}: its events (head was #${head}) and ${cursors}`];
}

/** Adds the `delete` command to the program. */
export function registerDelete(program: Command, { io, out }: RunContext): void {
  program
    .command('delete')
    .description('delete a session (sessionDeleted): its events, and every cursor from or to it with their notices')
    .addArgument(new Argument('<session>', 'the session to delete').argParser(named('<session>', parseSessionKey)))
    .option('--json', 'print what was removed as JSON')
    .action(async (session: string, options: { readonly json?: boolean }, command: Command) => {
      const store = await openExistingForWriting(stateLocation(command, io.cwd));
      const key = session as SessionKey;
      const summary = await withAwareness(store, out.note, async (awareness) => {
        const [heads, watching, watched] = await Promise.all([
          store.readHeads([key]),
          store.listCursors({ watcher: key }),
          store.listCursors({ target: key }),
        ]);
        await awareness.sessionDeleted(session);
        // A cursor of the session on itself is in both lists.
        const pairs = new Set([...watching, ...watched].map((row) => `${row.watcher} ${row.target}`));
        const head = heads[0]?.head ?? 0;
        return { sessionKey: session, exists: heads.length > 0 || pairs.size > 0, head, cursorsRemoved: pairs.size };
      });
      if (options.json === true) out.json(summary);
      else out.lines(deleteLines(summary));
    });
}
