// `session-state list [keys...]`: state versions, prune watermarks and cursor counts per session.
import type { Command } from 'commander';
import type { CursorRow, HeadRow, SessionKey } from '@session-state/domain';

import { named, parseSessionKey } from '../args.js';
import { table } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { withStore } from '../state/stateLocation.js';

/**
 * Joins head rows and cursor counts into one listing per key, in the order given: `stateVersion`
 * and `pruneWatermark` appear only when the session has a head row; `watching` counts the cursors
 * it holds as watcher, `watchedBy` those on it as target.
 */
export function buildListing(keys: readonly string[], heads: readonly HeadRow[], cursors: readonly CursorRow[]) {
  const headOf = new Map<string, HeadRow>(heads.map((row) => [row.sessionKey, row]));
  const watching = new Map<string, number>();
  const watchedBy = new Map<string, number>();
  for (const { watcher, target } of cursors) {
    watching.set(watcher, (watching.get(watcher) ?? 0) + 1);
    watchedBy.set(target, (watchedBy.get(target) ?? 0) + 1);
  }
  return keys.map((sessionKey) => {
    const head = headOf.get(sessionKey);
    return {
      sessionKey,
      ...(head !== undefined && head.head > 0 ? { stateVersion: head.head } : {}),
      ...(head !== undefined ? { pruneWatermark: head.pruneWatermark } : {}),
      watching: watching.get(sessionKey) ?? 0,
      watchedBy: watchedBy.get(sessionKey) ?? 0,
    };
  });
}

type SessionListing = ReturnType<typeof buildListing>[number];

/** The human form: one table row per session, `-` where a session has no head. */
export function listLines(listing: readonly SessionListing[]): string[] {
  if (listing.length === 0) return ['no sessions'];
  return table<SessionListing>(
    [
      { header: 'session', cell: (row) => row.sessionKey },
      { header: 'version', cell: (row) => row.stateVersion ?? '-', right: true },
      { header: 'prune watermark', cell: (row) => row.pruneWatermark ?? '-', right: true },
      { header: 'watching', cell: (row) => row.watching, right: true },
      { header: 'watched by', cell: (row) => row.watchedBy, right: true },
    ],
    listing,
  );
}

export function registerList(program: Command, { io, out }: RunContext): void {
  program
    .command('list')
    .description('state versions, prune watermarks and cursor counts (all sessions with a head when no keys are given)')
    .argument('[keys...]', 'the sessions to list')
    .option('--json', 'print the listing as JSON')
    .action(async (keys: string[], options: JsonOption, command: Command) => {
      const given = keys.map(named('[keys...]', parseSessionKey));
      const listing = await withStore(command, io.cwd, async (store) => {
        const cursors = await store.listCursors();
        if (given.length > 0) return buildListing(given, await store.readHeads(given as SessionKey[]), cursors);
        const heads = await store.readHeads();
        const all = new Set([...heads.map((row) => row.sessionKey), ...cursors.flatMap((row) => [row.watcher, row.target])]);
        return buildListing([...all].sort(), heads, cursors);
      });
      out.print(options, listing, listLines);
    });
}
