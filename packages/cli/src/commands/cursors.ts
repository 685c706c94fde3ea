// `session-state cursors [--watcher K] [--target K]`: every cursor's watermarks and whether a
// notice is pending for the pair.
import type { Command } from 'commander';
import { fromWatermarks, type CursorFilter, type CursorRow, type SessionKey } from '@session-state/domain';

import { checkedOption, parseSessionKey } from '../args.js';
import { table } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { withStore } from '../state/stateLocation.js';

/** A cursor as printed: its watermarks, whether a notice is pending (or is re-queued by the next restart scan: material or notified above acked), when it was last touched. */
export function toCursorListing(row: CursorRow) {
  return {
    watcher: row.watcher,
    target: row.target,
    acked: row.acked,
    notified: row.notified,
    material: row.material,
    pending: fromWatermarks(row).status === 'pending',
    touchedAt: new Date(row.touchedAt).toISOString(),
  };
}

type CursorListing = ReturnType<typeof toCursorListing>;

export function cursorLines(rows: readonly CursorListing[]): string[] {
  if (rows.length === 0) return ['no cursors'];
  return table<CursorListing>(
    [
      { header: 'watcher', cell: (row) => row.watcher },
      { header: 'target', cell: (row) => row.target },
      { header: 'acked', cell: (row) => row.acked, right: true },
      { header: 'notified', cell: (row) => row.notified, right: true },
      { header: 'material', cell: (row) => row.material, right: true },
      { header: 'notice', cell: (row) => (row.pending ? 'pending' : '-') },
      { header: 'touched', cell: (row) => row.touchedAt },
    ],
    rows,
  );
}

export function registerCursors(program: Command, { io, out }: RunContext): void {
  program
    .command('cursors')
    .description('watcher cursors: acked / notified / material and whether a notice is pending')
    .addOption(checkedOption('--watcher <sessionKey>', 'only cursors held by this watcher', parseSessionKey))
    .addOption(checkedOption('--target <sessionKey>', 'only cursors on this target', parseSessionKey))
    .option('--json', 'print the cursors as JSON')
    .action(async (options: JsonOption & { readonly watcher?: string; readonly target?: string }, command: Command) => {
      const filter: CursorFilter = {
        ...(options.watcher !== undefined ? { watcher: options.watcher as SessionKey } : {}),
        ...(options.target !== undefined ? { target: options.target as SessionKey } : {}),
      };
      out.print(options, await withStore(command, io.cwd, async (store) => (await store.listCursors(filter)).map(toCursorListing)), cursorLines);
    });
}
