// `session-state explain <watcher> <target> [--json]`: why a watcher got (or did not get) a
// notice about a target. Prints the pair's history from the store's cursor journal: when the
// watch started and why, each notice with its frozen watermark, each drain and what it
// acknowledged, each reopen, and why the watch ended. A read command: it opens the store
// read-only and changes nothing.
import type { Command } from 'commander';
import { explainPair, type CursorPair, type SessionKey } from '@session-state/domain';

import { sessionKeyArgument } from '../args.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { withStore } from '../state/stateLocation.js';

const HOW_TO_READ = `
Each line is one entry of the cursor journal, oldest first: #position, the time it was written,
what happened, and the cursor's watermarks after it (acked: what the watcher has reconciled up
to; notified: where the pending notice is frozen; material: the newest change that concerns the
watcher). A further change while a notice is pending raises material without an entry. The
journal follows the signal log's retention, so an old history may begin mid-watch.`;

export function registerExplain(program: Command, { io, out }: RunContext): void {
  program
    .command('explain')
    .description("why a watcher got (or did not get) a notice: the pair's history from the cursor journal")
    .addArgument(sessionKeyArgument('<watcher>', 'the watching session'))
    .addArgument(sessionKeyArgument('<target>', 'the watched session'))
    .option('--json', 'print the history as JSON (status, truncated, steps with their events and watermarks, lines)')
    .addHelpText('after', HOW_TO_READ)
    .action(async (watcher: string, target: string, options: JsonOption, command: Command) => {
      const pair: CursorPair = { watcher: watcher as SessionKey, target: target as SessionKey };
      const explanation = await withStore(command, io.cwd, async (store) => explainPair(await store.readCursorJournal(pair), pair));
      // A heading naming the pair, then one line per journal entry and the state now.
      out.print(options, explanation, ({ lines }) => [`watcher ${watcher}, target ${target}: the cursor journal`, ...lines]);
    });
}
