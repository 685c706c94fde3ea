// The restart scan: lock and read the pending cursors (material > acked), plan
// (`planRestartScan`: notified raised to material, one `recovered` notice per pending pair),
// write the raised rows and their `notice_recovered` entries. Running it twice changes nothing
// more. Only at start: a gateway's live re-reads (signals, the resync timer) use
// pendingNotices.ts, which never moves a watermark.
//
// Paged: each page of pending cursors (in pair order, after the last pair of the page before) is
// read, planned and written in its own write transaction, and the event loop runs between pages,
// so a million cursors never block it for long. A page reads, plans and writes chunks of
// RESTART_SCAN_CHUNK cursors until it has used RESTART_SCAN_PAGE_MS of CPU time, so its length
// follows the machine's speed, not a row count. Each cursor's scan step depends on that cursor alone, so pages
// in separate transactions give the same rows, journal and notices (in the same order) as one
// transaction would, while whatever commits between pages is seen by the later ones. The WAL
// auto-checkpoint is held off in each page's commit; the store's WAL schedule checkpoints off the
// event loop instead (see checkpointer.ts).
import { performance } from 'node:perf_hooks';

import { decodePendingRows } from '@session-state/adapters-sql-common';
import { planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import { withoutAutoCheckpoint, type WalSchedule } from './checkpointer';
import { writeCursorPlan } from './cursorJournal';
import type { StoreDb } from './storeDb';

/** Pending cursors read, planned and written at a time inside a page (a fraction of a millisecond's work). */
export const RESTART_SCAN_CHUNK = 100;

/**
 * A page takes another chunk while it has used less than this much CPU time (ms): the event loop
 * is never held much longer by the scan's own work. CPU time, not wall time: on a loaded machine
 * the OS deschedules the process mid-page, and a wall-clock budget then cut pages down to one
 * chunk each, multiplying commits (each rewriting the same index pages to the WAL) when the
 * machine could least afford them.
 */
export const RESTART_SCAN_PAGE_MS = 4;

/** A page also ends once this much wall time has passed (ms), however little CPU it used. */
export const RESTART_SCAN_PAGE_WALL_MS = 15;

/** CPU time (user + system) this process has used, in ms. */
const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

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

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One chunk inside a page's transaction: its notices, rows written, and the last pair it read (undefined after the last chunk). */
function scanChunk(db: StoreDb, after: Pair, now: number, owns: ((watcher: SessionKey) => boolean) | undefined) {
  const rows = db.statements.pendingCursorsAfter.all({ ...after, limit: RESTART_SCAN_CHUNK });
  const cursors = decodePendingRows(db, 'restartScan', rows, now, owns);
  const plan = planRestartScan({ cursors, ...(owns !== undefined ? { owns } : {}), now });
  writeCursorPlan(db, plan);
  const last = rows.length === RESTART_SCAN_CHUNK ? rows[rows.length - 1] : undefined;
  const next = last === undefined ? undefined : { watcher: String(last[0]), target: String(last[1]) };
  return { notices: plan.notices, written: plan.cursorWrites.length + plan.journal.length, next };
}

/** One page (one write transaction): chunks until its budget is spent or nothing is left; its notices go to `into`. */
function scanPage(db: StoreDb, after: Pair, now: number, owns: ((watcher: SessionKey) => boolean) | undefined, into: Notice[]) {
  const started = performance.now();
  const startedCpu = cpuMs();
  const spent = (): boolean => cpuMs() - startedCpu >= RESTART_SCAN_PAGE_MS || performance.now() - started >= RESTART_SCAN_PAGE_WALL_MS;
  return withoutAutoCheckpoint(db.client, () =>
    db.client
      .transaction(() => {
        let next: Pair | undefined = after;
        let written = 0;
        do {
          const chunk = scanChunk(db, next, now, owns);
          for (const notice of chunk.notices) into.push(notice);
          written += chunk.written;
          next = chunk.next;
        } while (next !== undefined && !spent());
        return { next, written };
      })
      .immediate(),
  );
}

/**
 * The restart scan over pending cursors (those whose watcher passes `owns`), page by page; one
 * notice per pair, in pair order. With a `wal` schedule, each page waits for a running checkpoint
 * and reports the rows it wrote.
 */
export async function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean, wal?: WalSchedule): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  let after: Pair | undefined = BEFORE_FIRST;
  while (after !== undefined) {
    await wal?.ready();
    const page = scanPage(db, after, now, owns, notices);
    after = page.next;
    wal?.written(page.written, after === undefined);
    if (after !== undefined) await nextTurn();
  }
  return notices;
}
