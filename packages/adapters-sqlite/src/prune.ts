// One bounded batch of retention in one write transaction: events older than the age limit,
// then the lowest sequences beyond the row cap, prune watermarks raised over what went, and
// cursors idle beyond the age limit expired.
import { asc, count, eq, inArray, lt, sql, type SQLWrapper } from 'drizzle-orm';
import type { PruneBatch, PruneRequest } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import { events, heads } from './schema';
import type { StoreDb } from './storeDb';

type Tx = Parameters<Parameters<StoreDb['orm']['transaction']>[0]>[0];

/** Deletes the given events (by a bounded subquery) and notes each session's highest deleted sequence. */
function deleteEvents(tx: Tx, selection: SQLWrapper, highest: Map<string, number>): number {
  const deleted = tx
    .delete(events)
    .where(inArray(events.sequence, selection))
    .returning({ sessionKey: events.sessionKey, sequence: events.sequence })
    .all();
  for (const row of deleted) {
    const before = highest.get(row.sessionKey);
    if (before === undefined || row.sequence > before) highest.set(row.sessionKey, row.sequence);
  }
  return deleted.length;
}

/** The start of a bounded selection of event sequences to delete. */
function selectSequences(tx: Tx) {
  return tx.select({ sequence: events.sequence }).from(events);
}

/** One bounded retention batch (at most `batchSize` events and cursors); `done` when nothing is left. */
export function prune(db: StoreDb, request: PruneRequest): PruneBatch {
  const { now, maxAgeMs, maxRows, batchSize } = request;
  // A non-finite cutoff (an infinite age limit) prunes nothing by age and expires no cursor.
  const cutoff = now - maxAgeMs;
  const byAge = Number.isFinite(cutoff);
  return db.orm.transaction(
    (tx) => {
      const highest = new Map<string, number>();
      let eventsDeleted = 0;

      // --- age: the oldest appends first --------------------------------------------------
      if (byAge && batchSize > 0) {
        eventsDeleted += deleteEvents(
          tx,
          selectSequences(tx).where(lt(events.appendedAt, cutoff)).orderBy(asc(events.appendedAt), asc(events.sequence)).limit(batchSize),
          highest,
        );
      }

      // --- row cap: the lowest sequences (the earliest appends) beyond maxRows ------------------
      let total = tx.select({ n: count() }).from(events).get()?.n ?? 0;
      const budget = batchSize - eventsDeleted;
      const excess = total - maxRows;
      if (budget > 0 && excess > 0) {
        const deleted = deleteEvents(tx, selectSequences(tx).orderBy(asc(events.sequence)).limit(Math.min(budget, excess)), highest);
        eventsDeleted += deleted;
        total -= deleted;
      }

      // --- prune watermarks: raised in the same transaction, never lowered ---------------------
      for (const [sessionKey, sequence] of highest) {
        tx.update(heads)
          .set({ pruneWatermark: sql`max(${heads.pruneWatermark}, ${sequence})` })
          .where(eq(heads.sessionKey, sessionKey))
          .run();
      }

      // --- idle cursors -----------------------------------------------------------------------
      const expired = byAge && batchSize > 0
        ? tx.all<{ watcher: string; target: string }>(
            sql`DELETE FROM cursors WHERE rowid IN (SELECT rowid FROM cursors WHERE touched_at < ${cutoff} LIMIT ${batchSize}) RETURNING watcher, target`,
          )
        : [];

      // --- anything left? ---------------------------------------------------------------------
      const agedLeft =
        byAge && tx.get<{ left: number }>(sql`SELECT EXISTS (SELECT 1 FROM events WHERE appended_at < ${cutoff}) AS "left"`)?.left === 1;
      const idleLeft =
        byAge && tx.get<{ left: number }>(sql`SELECT EXISTS (SELECT 1 FROM cursors WHERE touched_at < ${cutoff}) AS "left"`)?.left === 1;
      const done = !agedLeft && !idleLeft && total <= maxRows;
      return { eventsDeleted, expiredCursors: toSortedPairs(expired), done };
    },
    { behavior: 'immediate' },
  );
}
