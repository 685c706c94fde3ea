// The pending cursors (material > acked), the only ones that can hold a notice: all of them from
// the covering partial index cursors_lagging, or those on some targets by the cursors_target
// index. The restart scan (recover.ts) plans writes on them; pendingNotices.ts only reads them.
import { and, asc, gt, inArray } from 'drizzle-orm';
import { decodeStoredWatermarks, type CursorRow, type SessionKey } from '@session-state/domain';

import { cursors } from './schema';
import type { StoreDb } from './storeDb';

/** At most this many targets go into one `IN (…)` list, well below SQLite's bound-parameter limit. */
export const TARGETS_PER_QUERY = 500;

const pendingColumns = { watcher: cursors.watcher, target: cursors.target, acked: cursors.acked, notified: cursors.notified, material: cursors.material };

/** A pending cursor as [watcher, target, acked, notified, material], exactly as read. */
export type PendingRow = readonly unknown[];

type Select = Pick<StoreDb['orm'], 'select'>;

/**
 * Every cursor with material > acked, by watcher then target, as a PendingRow: all of them
 * columns of the partial index cursors_lagging, so the scan reads only that (small) index and
 * never the table.
 */
export function pendingCursors(orm: Select) {
  return orm.select(pendingColumns).from(cursors).where(gt(cursors.material, cursors.acked)).orderBy(asc(cursors.watcher), asc(cursors.target));
}

/**
 * The pending cursors on these targets (at most TARGETS_PER_QUERY), unordered: an `IN` lookup
 * on the cursors_target index, so a signalled re-read reads only the signalled targets' cursors.
 */
export function pendingCursorsOn(orm: Select, targets: readonly string[]) {
  return orm
    .select(pendingColumns)
    .from(cursors)
    .where(and(inArray(cursors.target, [...targets]), gt(cursors.material, cursors.acked)));
}

/** The pending rows on `targets` (each target read once, in chunks), unordered: the planners order them. */
export function pendingRowsOn(orm: Select, targets: readonly SessionKey[]): PendingRow[] {
  const unique = [...new Set(targets)];
  const rows: PendingRow[] = [];
  for (let start = 0; start < unique.length; start += TARGETS_PER_QUERY) {
    rows.push(...pendingCursorsOn(orm, unique.slice(start, start + TARGETS_PER_QUERY)).values());
  }
  return rows;
}

/**
 * The pending rows of the watchers that pass `owns` as the planners' CursorRows, touched at
 * `touchedAt` (the covering index holds no touched_at; every row a plan writes is touched at the
 * operation's time anyway). A corrupt row is reported by the domain's check and left out.
 */
export function pendingRows(
  sink: StoreDb,
  operation: string,
  rows: Iterable<PendingRow>,
  touchedAt: number,
  owns?: (watcher: SessionKey) => boolean,
): CursorRow[] {
  const cursors: CursorRow[] = [];
  for (const row of rows) {
    const watcher = row[0] as SessionKey;
    if (owns !== undefined && !owns(watcher)) continue;
    const stored = decodeStoredWatermarks(sink, operation, row);
    if (stored !== undefined) cursors.push({ watcher, target: row[1] as SessionKey, ...stored, touchedAt });
  }
  return cursors;
}
