// One page of pending cursors in pair order (`scanPending`): read-only, or the restart scan's page,
// read, planned and written in one transaction. The app pages through them.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { planScan, type CursorPair, type ScanPage, type ScanRequest } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import { nextTurn, withoutAutoCheckpoint, type WalSchedule } from '../worker/walBound.js';
import { writeCursorPlan } from './journal.js';
import { withLogMaterial } from './logMaterial.js';

/** Rows the scan writes per WAL page, about: neighbouring cursors and appended journal entries share pages. */
const ROWS_PER_WAL_PAGE = 5;

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

/** One page. With `raise`, a page that waited for a checkpoint runs in a turn of its own. */
export async function scanPending(db: StoreDb, request: ScanRequest, wal?: WalSchedule): Promise<ScanPage> {
  const { after, limit, targets, raise } = request;
  if (raise !== undefined && (await wal?.ready()) === true) await nextTurn();
  const page = (): ScanPage & { readonly written: number } => {
    const from = { ...(after ?? BEFORE_FIRST), limit };
    const rows = targets === undefined ? db.statements.pendingCursorsAfter.all(from) : db.statements.pendingCursorsOn.all({ ...from, targets: JSON.stringify(targets) });
    const cursors = decodePendingRows(db, 'scanPending', rows, raise?.now ?? 0, request.owns);
    const plan = planScan({ ...request, cursors: raise === undefined ? cursors : withLogMaterial(db, cursors) });
    if (raise !== undefined) writeCursorPlan(db, plan);
    const last = rows.length === limit ? rows[rows.length - 1] : undefined;
    const next = last === undefined ? {} : { next: { watcher: String(last[0]), target: String(last[1]) } as CursorPair };
    return { notices: plan.notices, ...next, written: plan.cursorWrites.length + plan.journal.length };
  };
  const { written, ...scanned } = raise === undefined ? db.client.transaction(page).deferred() : withoutAutoCheckpoint(db.client, () => db.client.transaction(page).immediate());
  if (raise !== undefined) wal?.written(Math.ceil(written / ROWS_PER_WAL_PAGE), scanned.next === undefined);
  return scanned;
}
