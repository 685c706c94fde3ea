// `session-state prune [--max-age 30d] [--max-rows N]`: runs retention to completion on the state
// file, in bounded batches, with the real clock.
import { Option, type Command } from 'commander';
import type { StateStore } from '@session-state/domain';

import { named, parseDuration, parsePositiveInteger } from '../args';
import type { RunContext } from '../io';
import { openExistingForWriting, stateLocation } from '../stateLocation';

interface PruneOptions {
  readonly maxAge: number;
  readonly maxRows: number;
  readonly json?: boolean;
}

const DAY_MS = 86_400_000;
const DEFAULT_MAX_ROWS = 50_000;
const BATCH_SIZE = 1_000;

/** What one full prune did. */
export interface PruneSummary {
  readonly eventsDeleted: number;
  readonly cursorsExpired: number;
}

/** Runs prune batches until the store reports nothing left (or a batch makes no progress). */
export async function pruneToCompletion(store: StateStore, now: number, maxAgeMs: number, maxRows: number): Promise<PruneSummary> {
  let eventsDeleted = 0;
  let cursorsExpired = 0;
  for (;;) {
    const batch = await store.prune({ now, maxAgeMs, maxRows, batchSize: BATCH_SIZE });
    eventsDeleted += batch.eventsDeleted;
    cursorsExpired += batch.expiredCursors.length;
    if (batch.done || (batch.eventsDeleted === 0 && batch.expiredCursors.length === 0)) break;
  }
  return { eventsDeleted, cursorsExpired };
}

/** Adds the `prune` command to the program. */
export function registerPrune(program: Command, { io, out }: RunContext): void {
  program
    .command('prune')
    .description('delete events older than --max-age and beyond --max-rows; expire idle cursors')
    .addOption(new Option('--max-age <duration>', 'age limit such as 30d, 12h, 90m').argParser(named('--max-age', parseDuration)).default(30 * DAY_MS, '30d'))
    .addOption(new Option('--max-rows <N>', 'row limit across all sessions').argParser(named('--max-rows', parsePositiveInteger)).default(DEFAULT_MAX_ROWS))
    .option('--json', 'print the counts as JSON')
    .action(async (options: PruneOptions, command: Command) => {
      const store = await openExistingForWriting(stateLocation(command, io.cwd));
      try {
        const summary = await pruneToCompletion(store, Date.now(), options.maxAge, options.maxRows);
        if (options.json === true) out.json(summary);
        else out.lines([`pruned ${summary.eventsDeleted} events, expired ${summary.cursorsExpired} cursors`]);
      } finally {
        await store.close();
      }
    });
}
