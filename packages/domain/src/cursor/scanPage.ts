// One page of the paged pending-cursor read (`scanPending`), for stores that cannot page in SQL.
import type { CursorRow } from '../log/append.js';
import type { Notice } from '../notice.js';
import type { CursorPair, ScanRequest } from '../ports/storeTypes.js';
import { comparePairs, planHeldNotices, planRestartScan, type RestartScanPlan } from './plans.js';

type Pair = { readonly watcher: string; readonly target: string };

/** Throws unless `limit` is a positive integer. */
export function assertScanLimit(limit: unknown): void {
  if (!Number.isSafeInteger(limit) || (limit as number) < 1) throw new RangeError(`invalid limit: expected a positive integer, got ${String(limit)}`);
}

/** The first `limit` rows after `after` in pair order, and where the next page starts when the page is full. */
export function pageAfter<R extends Pair>(rows: readonly R[], after: Pair | undefined, limit: number): { readonly rows: readonly R[]; readonly next?: CursorPair } {
  const page = rows.filter((row) => after === undefined || comparePairs(row, after) > 0).sort(comparePairs).slice(0, limit);
  return { rows: page, ...nextAfter(page, limit) };
}

/** `{ next }` naming the page's last pair when it read `limit` rows; `{}` otherwise. */
export function nextAfter(rows: readonly Pair[], limit: number): { readonly next?: CursorPair } {
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  return last === undefined ? {} : { next: { watcher: last.watcher, target: last.target } as CursorPair };
}

/** The plan of one page's cursors: the restart scan's when `raise` is given, else the held notices (nothing to write). */
export function planScanPage(request: ScanRequest, cursors: readonly CursorRow[]): RestartScanPlan {
  const { owns, targets, raise } = request;
  const filter = { ...(owns !== undefined ? { owns } : {}) };
  if (raise !== undefined) return planRestartScan({ cursors, ...filter, now: raise.now });
  const notices: readonly Notice[] = planHeldNotices({ cursors, ...filter, ...(targets !== undefined ? { targets } : {}) });
  return { cursorWrites: [], journal: [], notices };
}
