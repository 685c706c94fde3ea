// The restart scan: lock and read the pending cursors (material > acked), plan
// (`planRestartScan`: notified raised to material, one `recovered` notice per pending pair),
// write the raised rows and their `notice_recovered` entries. Running it twice changes nothing
// more. Only at start: a gateway's live re-reads (signals, the resync timer) use
// pendingNotices.ts, which never moves a watermark.
//
// Paged: each page of pending cursors (in pair order, after the last pair of the page before) is
// read, planned and written in its own write transaction, and the event loop runs between pages,
// so a million cursors never block it for long. A page reads, plans and writes chunks until its
// wall-time budget (RESTART_SCAN_PAGE_MS, its commit included) is spent; each chunk's size follows
// the measured cost per row and per commit (scanPacer.ts), so a page's length follows the
// machine's speed, not a row count. Each cursor's scan step depends on that cursor alone, so pages
// in separate transactions give the same rows, journal and notices (in the same order) as one
// transaction would, while whatever commits between pages is seen by the later ones. The WAL
// auto-checkpoint is held off in each page's commit; the store's WAL schedule checkpoints off the
// event loop instead (see checkpointer.ts).
import { performance } from 'node:perf_hooks';

import { decodePendingRows } from '@session-state/adapters-sql-common';
import { noticeText, planRestartScan, type Notice, type NoticeTextOf, type SessionKey } from '@session-state/domain';

import { withoutAutoCheckpoint, type WalSchedule } from './checkpointer.js';
import { writeCursorPlan } from './cursorJournal.js';
import { finishOwedFanOuts } from './fanOut.js';
import { withLogMaterial } from './logMaterial.js';
import { createScanPacer, type ScanPacer } from './scanPacer.js';
import type { StoreDb } from './storeDb.js';

/** Pending cursors the scan's first chunk reads, before any chunk has been timed (a fraction of a millisecond's work). */
export const RESTART_SCAN_CHUNK = 100;

/** Fewest pending cursors a chunk reads (a page reads at least one chunk, so the scan always moves on). */
export const RESTART_SCAN_CHUNK_MIN = 20;

/** Most pending cursors a chunk reads (one statement's LIMIT). */
export const RESTART_SCAN_CHUNK_MAX = 1000;

/**
 * Wall time a page may hold the event loop, its commit included (ms). Wall time, as the event
 * loop sees it: a page whose statements ran slow (a loaded machine, a garbage collection) ends
 * early rather than late, and the pacer only partly believes such a page, so the next ones do not
 * shrink to a chunk each (multiplying commits, each rewriting the same index pages to the WAL).
 */
export const RESTART_SCAN_PAGE_MS = 5;

/**
 * Rows the scan writes (raised cursors and their journal entries) between two off-loop
 * checkpoints. Far more than prune's CHECKPOINT_AFTER_ROWS: a page's rows share few database
 * pages (neighbouring cursors, appended journal entries), and each checkpoint copies and syncs
 * the file, which cost the scan about as much CPU again when run every 1000 rows.
 */
export const SCAN_CHECKPOINT_AFTER_ROWS = 20_000;

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

type Pair = { readonly watcher: string; readonly target: string };

/** What every chunk of one scan shares: its time, the watchers it owns (all when undefined), and one text memo. */
interface Scan {
  readonly now: number;
  readonly owns: ((watcher: SessionKey) => boolean) | undefined;
  readonly textOf: NoticeTextOf;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One chunk of `limit` rows inside a page's transaction: its notices, rows read and written, and the last pair it read (undefined after the last chunk). */
function scanChunk(db: StoreDb, after: Pair, limit: number, scan: Scan) {
  const { now, owns, textOf } = scan;
  const rows = db.statements.pendingCursorsAfter.all({ ...after, limit });
  const cursors = withLogMaterial(db, decodePendingRows(db, 'restartScan', rows, now, owns));
  const plan = planRestartScan({ cursors, ...(owns !== undefined ? { owns } : {}), now, textOf });
  writeCursorPlan(db, plan);
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  const next = last === undefined ? undefined : { watcher: String(last[0]), target: String(last[1]) };
  return { notices: plan.notices, read: rows.length, written: plan.cursorWrites.length + plan.journal.length, next };
}

/** One page (one write transaction): chunks as the pacer sizes them until it says commit or nothing is left; its notices go to `into`. */
function scanPage(db: StoreDb, after: Pair, scan: Scan, pacer: ScanPacer, into: Notice[]) {
  const started = performance.now();
  let chunksEnded = started;
  const page = withoutAutoCheckpoint(db.client, () =>
    db.client
      .transaction(() => {
        let next: Pair | undefined = after;
        let written = 0;
        let limit = pacer.nextChunk(0);
        while (next !== undefined && limit > 0) {
          const chunkStarted = performance.now();
          const chunk = scanChunk(db, next, limit, scan);
          for (const notice of chunk.notices) into.push(notice);
          written += chunk.written;
          next = chunk.next;
          chunksEnded = performance.now();
          pacer.chunkTook(chunk.read, chunksEnded - chunkStarted);
          limit = pacer.nextChunk(chunksEnded - started);
        }
        return { next, written };
      })
      .immediate(),
  );
  pacer.commitTook(performance.now() - chunksEnded);
  return page;
}

/**
 * The restart scan over pending cursors (those whose watcher passes `owns`), page by page; one
 * notice per pair, in pair order. With a `wal` schedule, each page waits for a running checkpoint
 * and reports the rows it wrote. Fan-outs a crash left owed (fanOut.ts) are finished first.
 */
export async function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean, wal?: WalSchedule): Promise<readonly Notice[]> {
  // A fan-out a crash cut short raises its cursors first, so the scan re-queues them.
  await finishOwedFanOuts(db);
  const notices: Notice[] = [];
  const scan: Scan = { now, owns, textOf: noticeText };
  const pacer = createScanPacer({ budgetMs: RESTART_SCAN_PAGE_MS, firstRows: RESTART_SCAN_CHUNK, minRows: RESTART_SCAN_CHUNK_MIN, maxRows: RESTART_SCAN_CHUNK_MAX });
  let after: Pair | undefined = BEFORE_FIRST;
  while (after !== undefined) {
    await wal?.ready();
    // Every page starts an event-loop turn of its own, in the check phase: a checkpoint that
    // finishes resolves ready() in the poll phase, and a page run there shared its turn with the
    // next page (two budgets in one block); the first page would share the caller's turn.
    await nextTurn();
    const page = scanPage(db, after, scan, pacer, notices);
    after = page.next;
    wal?.written(page.written, after === undefined);
  }
  return notices;
}
