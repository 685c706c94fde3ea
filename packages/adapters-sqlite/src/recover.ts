// The restart scan: every lagging cursor (material > acked) is stepped by
// `evolveCursor(restartScan)` and yields one notice; running it twice changes nothing more. A
// scan limited to targets (a cross-process signal named them) reads only their cursors.
import { and, asc, gt, inArray } from 'drizzle-orm';
import { evolveCursor, isSequence, fromWatermarks, noticeFor, toWatermarks, type Notice, type SessionKey } from '@session-state/domain';

import { cursors } from './schema';
import type { StoreDb } from './storeDb';

/** At most this many targets go into one `IN (…)` list, well below SQLite's bound-parameter limit. */
export const TARGETS_PER_QUERY = 500;

const laggingColumns = { watcher: cursors.watcher, target: cursors.target, acked: cursors.acked, notified: cursors.notified, material: cursors.material };

/** A lagging cursor as [watcher, target, acked, notified, material], exactly as read. */
type LaggingRow = readonly unknown[];

/**
 * Every cursor with material > acked, by watcher then target, as [watcher, target, acked,
 * notified, material]: all of them columns of the partial index cursors_lagging, so the scan
 * reads only that (small) index and never the table.
 */
export function laggingCursors(orm: Pick<StoreDb['orm'], 'select'>) {
  return orm.select(laggingColumns).from(cursors).where(gt(cursors.material, cursors.acked)).orderBy(asc(cursors.watcher), asc(cursors.target));
}

/**
 * The lagging cursors on these targets (at most TARGETS_PER_QUERY), unordered: an `IN` lookup
 * on the cursors_target index, so a signalled scan reads only the signalled targets' cursors.
 */
export function laggingCursorsOn(orm: Pick<StoreDb['orm'], 'select'>, targets: readonly string[]) {
  return orm
    .select(laggingColumns)
    .from(cursors)
    .where(and(inArray(cursors.target, [...targets]), gt(cursors.material, cursors.acked)));
}

/** The lagging rows on `targets` (each target read once), by watcher then target. */
function laggingRowsOn(tx: Pick<StoreDb['orm'], 'select'>, targets: readonly SessionKey[]): LaggingRow[] {
  const unique = [...new Set(targets)];
  const rows: LaggingRow[] = [];
  for (let start = 0; start < unique.length; start += TARGETS_PER_QUERY) {
    rows.push(...laggingCursorsOn(tx, unique.slice(start, start + TARGETS_PER_QUERY)).values());
  }
  // Chunks (and the index lookup) give no overall order; the port promises watcher, then target.
  return rows.sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]));
}

function compareText(a: unknown, b: unknown): number {
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The restart scan over lagging cursors (those whose watcher passes `owns`, and only those on
 * `targets` when given), in one write transaction; one notice per pair.
 */
export function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Notice[] {
  const st = db.statements;
  return db.orm.transaction(
    (tx) => {
      const notices: Notice[] = [];
      const rows: Iterable<LaggingRow> = targets === undefined ? laggingCursors(tx).values() : laggingRowsOn(tx, targets);
      for (const row of rows) {
        const watcher = row[0] as SessionKey;
        if (owns !== undefined && !owns(watcher)) continue;
        const target = row[1] as SessionKey;
        if (!isSequence(row[2]) || !isSequence(row[3]) || !isSequence(row[4])) {
          db.onCorruptRow({ operation: 'recover', table: 'cursors', reason: 'a watermark is not a non-negative integer' });
          continue;
        }
        const stored = { acked: row[2], notified: row[3], material: row[4] };
        const step = evolveCursor(watcher, fromWatermarks(stored), { type: 'restartScan' });
        if (step === undefined) continue;
        if (step.changed) {
          const w = toWatermarks(step.cursor);
          st.updateCursor.run(w.acked, w.notified, w.material, now, watcher, target);
        }
        const notice = noticeFor(watcher, target, step);
        if (notice !== undefined) notices.push(notice);
      }
      return notices;
    },
    { behavior: 'immediate' },
  );
}
