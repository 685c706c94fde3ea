// `session-state reset <watcher>`: the facade's sessionReset on an existing store: the watcher's
// cursors (what it watches) and their notices go, as when the gateway resets that session.
import { Argument, type Command } from 'commander';
import type { SessionKey } from '@session-state/domain';

import { named, parseSessionKey } from '../args';
import { withAwareness } from '../awarenessRun';
import type { RunContext } from '../io';
import { openExistingForWriting, stateLocation } from '../stateLocation';

/** What a reset removed. */
export interface ResetSummary {
  readonly watcher: string;
  readonly cursorsRemoved: number;
}

/** The human form of a reset. */
export function resetLines({ watcher, cursorsRemoved }: ResetSummary): string[] {
  if (cursorsRemoved === 0) return [`reset ${watcher}: it watched nothing; nothing removed`];
  return [`reset ${watcher}: removed its ${cursorsRemoved} cursor${cursorsRemoved === 1 ? '' : 's'} (and their notices)`];
}

/** Adds the `reset` command to the program. */
export function registerReset(program: Command, { io, out }: RunContext): void {
  program
    .command('reset')
    .description("forget what a watcher watches (sessionReset): its cursors and their pending notices go; events stay")
    .addArgument(new Argument('<watcher>', 'the watching session to reset').argParser(named('<watcher>', parseSessionKey)))
    .option('--json', 'print what was removed as JSON')
    .action(async (watcher: string, options: { readonly json?: boolean }, command: Command) => {
      const store = await openExistingForWriting(stateLocation(command, io.cwd));
      const summary = await withAwareness(store, out.note, async (awareness) => {
        const cursors = await store.listCursors({ watcher: watcher as SessionKey });
        await awareness.sessionReset(watcher);
        return { watcher, cursorsRemoved: cursors.length };
      });
      if (options.json === true) out.json(summary);
      else out.lines(resetLines(summary));
    });
}
