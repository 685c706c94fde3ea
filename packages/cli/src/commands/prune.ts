// `session-state prune [--max-age 30d] [--max-rows N] [--cursor-max-age D] [--dry-run] [--vacuum]`:
// runs retention to completion on the state file, in bounded batches, with the real clock.
// Progress goes to stderr when it is a terminal; Ctrl-C stops after the batch in progress and
// reports what was committed.
import type { Command } from 'commander';
import { isStoreMaintenance, type PruneRequest, type StateStore } from '@session-state/domain';

import { checkedOption, parseDuration, parsePositiveInteger } from '../args.js';
import { interruption, type CliStream, type JsonOption, type RunContext } from '../output/io.js';
import { withStore } from '../state/stateLocation.js';

interface PruneOptions extends JsonOption {
  readonly maxAge: number;
  readonly maxRows: number;
  readonly cursorMaxAge?: number;
  readonly dryRun?: boolean;
  readonly vacuum?: boolean;
}

const DAY_MS = 86_400_000;
const DEFAULT_MAX_AGE_MS = 30 * DAY_MS;
const BATCH_SIZE = 1_000;

// Without --cursor-max-age, the larger of --max-age and its default: a pending cursor is touched
// by the event that made it pending, so a cursor limit at or above the event limit never expires a
// cursor before the events it points at, and pruning events hard (`--max-age 1s`) leaves the
// watches of the last 30 days alone.
const CURSOR_MAX_AGE = 'how long a watch may sit untouched before it expires (default: the larger of --max-age and 30d, so no pending cursor expires before its events)';

/**
 * Runs prune batches until the store reports nothing left, a batch makes no progress, or a stop is
 * asked for: `onBatch` gets the totals after each committed batch; `stopRequested` is asked after
 * each, and true stops the run there (everything so far is committed), `interrupted`.
 */
export async function pruneToCompletion(
  store: StateStore,
  request: Omit<PruneRequest, 'batchSize'>,
  hooks: { readonly onBatch?: (totals: { eventsDeleted: number; cursorsExpired: number }) => void; readonly stopRequested?: () => boolean } = {},
) {
  let eventsDeleted = 0;
  let cursorsExpired = 0;
  let journalAfter: number | undefined;
  for (;;) {
    const batch = await store.prune({ ...request, batchSize: BATCH_SIZE, ...(journalAfter !== undefined ? { journalAfter } : {}) });
    // A batch that only moved the journal's window on made progress too (the window rises each batch).
    const journalMoved = batch.journalAfter !== undefined && batch.journalAfter !== journalAfter;
    journalAfter = batch.journalAfter;
    eventsDeleted += batch.eventsDeleted;
    cursorsExpired += batch.expiredCursors.length;
    hooks.onBatch?.({ eventsDeleted, cursorsExpired });
    if (batch.done || (batch.eventsDeleted === 0 && batch.expiredCursors.length === 0 && !journalMoved)) return { eventsDeleted, cursorsExpired, interrupted: false };
    if (hooks.stopRequested?.() === true) return { eventsDeleted, cursorsExpired, interrupted: true };
  }
}

/**
 * A cli-progress bar on `stream` (a terminal) of the events pruned out of `total`, what the
 * dry-run count found at the start; `stop` leaves its last state on the terminal. cli-progress is
 * loaded only when a bar is shown.
 */
async function startProgress(stream: NodeJS.WritableStream, total: number) {
  const { SingleBar } = await import('cli-progress');
  const format = 'pruning [{bar}] {value}/{total} events | {percentage}% | ETA {eta_formatted}';
  const bar = new SingleBar({ stream, format, hideCursor: true, clearOnComplete: false });
  bar.start(Math.max(total, 1), 0);
  return {
    update: (eventsDeleted: number): void => {
      // The log can grow while it is pruned: the total follows, the bar never overflows.
      if (eventsDeleted > bar.getTotal()) bar.setTotal(eventsDeleted);
      bar.update(eventsDeleted);
    },
    stop: (): void => bar.stop(),
  };
}

const bytes = (n: number): string => (n < 2 ** 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 2 ** 20).toFixed(1)} MB`);

/** The dry run: what prune would delete and expire, counted on a read-only store. */
async function dryRun(store: StateStore, request: Omit<PruneRequest, 'batchSize'>, options: JsonOption, { out }: RunContext): Promise<void> {
  if (!isStoreMaintenance(store)) throw new Error('this store cannot count what prune would delete (no previewPrune)');
  const preview = { dryRun: true, ...(await store.previewPrune({ ...request, batchSize: BATCH_SIZE })) };
  out.print(options, preview, (p) => [`would prune ${p.eventsToDelete} events, expire ${p.cursorsToExpire} cursors (dry run: nothing written)`]);
}

/** The real run: batches until done or Ctrl-C, progress on a terminal, then the optional vacuum. */
async function pruneAndReport(store: StateStore, request: Omit<PruneRequest, 'batchSize'>, options: PruneOptions, { io, out }: RunContext): Promise<void> {
  const stop = interruption(io);
  let progress: Awaited<ReturnType<typeof startProgress>> | undefined;
  let run: Awaited<ReturnType<typeof pruneToCompletion>>;
  try {
    if (io.stderr.isTTY === true && isStoreMaintenance(store)) {
      const preview = await store.previewPrune({ ...request, batchSize: BATCH_SIZE });
      progress = await startProgress(io.stderr as CliStream & NodeJS.WritableStream, preview.eventsToDelete);
    }
    run = await pruneToCompletion(store, request, { onBatch: (totals) => progress?.update(totals.eventsDeleted), stopRequested: stop.isSet });
  } finally {
    progress?.stop();
    stop.dispose();
  }
  const { eventsDeleted, cursorsExpired } = run;
  if (run.interrupted) {
    out.print(options, { eventsDeleted, cursorsExpired, interrupted: true }, () => [
      `interrupted: pruned ${eventsDeleted} events, expired ${cursorsExpired} cursors (committed); run prune again to finish`,
    ]);
    throw new Error(`interrupted: prune stopped after committing ${eventsDeleted} deleted events and ${cursorsExpired} expired cursors`);
  }
  let vacuum: { bytesBefore: number; bytesAfter: number; bytesReclaimed: number } | undefined;
  if (options.vacuum === true) {
    if (!isStoreMaintenance(store) || store.vacuum === undefined) throw new Error('this store cannot vacuum');
    const { bytesBefore, bytesAfter } = await store.vacuum();
    // Never negative: a store may grow a page.
    vacuum = { bytesBefore, bytesAfter, bytesReclaimed: Math.max(0, bytesBefore - bytesAfter) };
  }
  out.print(options, { eventsDeleted, cursorsExpired, ...(vacuum !== undefined ? { vacuum } : {}) }, () => [
    `pruned ${eventsDeleted} events, expired ${cursorsExpired} cursors`,
    ...(vacuum !== undefined ? [`vacuumed: ${bytes(vacuum.bytesBefore)} -> ${bytes(vacuum.bytesAfter)}, ${bytes(vacuum.bytesReclaimed)} reclaimed`] : []),
  ]);
}

export function registerPrune(program: Command, context: RunContext): void {
  const { io } = context;
  program
    .command('prune')
    .description('delete events older than --max-age and beyond --max-rows; expire cursors idle beyond --cursor-max-age')
    .addOption(checkedOption('--max-age <duration>', 'event age limit such as 30d, 12h, 90m', parseDuration).default(DEFAULT_MAX_AGE_MS, '30d'))
    .addOption(checkedOption('--max-rows <N>', 'row limit across all sessions', parsePositiveInteger).default(50_000))
    .addOption(checkedOption('--cursor-max-age <duration>', CURSOR_MAX_AGE, parseDuration))
    .option('--dry-run', 'count what would be deleted and expired; write nothing')
    .option('--vacuum', 'after pruning, give the freed space back (SQLite VACUUM, PostgreSQL VACUUM) and report the bytes reclaimed')
    .option('--json', 'print the counts as JSON')
    .action(async (options: PruneOptions, command: Command) => {
      const request = { now: Date.now(), maxAgeMs: options.maxAge, maxRows: options.maxRows, cursorMaxAgeMs: options.cursorMaxAge ?? Math.max(options.maxAge, DEFAULT_MAX_AGE_MS) };
      const prune = options.dryRun === true ? dryRun : pruneAndReport;
      await withStore(command, io.cwd, (store) => prune(store, request, options, context), options.dryRun !== true);
    });
}
