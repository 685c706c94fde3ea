// One bounded batch of retention in one transaction: events older than the age limit, then the
// lowest sequences beyond the row cap, prune watermarks raised over what went (`planHeadWrite` on
// the locked head rows), cursors idle beyond the age limit expired (`planRemoval`),
// `material_kept` for the pending cursors whose material went (`planPruneMaterial`), and the
// journal by `planJournalPrune`'s rule. Rows another gateway's prune has locked are skipped, so
// two gateways pruning at once share the work instead of waiting on each other.
import { batchRoom, decodeStoredCursors, headOfRow, journalAfterOf, journalCap, pruneCountParams, prunedSessions, retentionCutoff, type HeadChange } from '@session-state/adapters-sql-common';
import { asSequence, journalWindowEnd, planPruneMaterial, type JournalWindowFacts, type PruneBatch, type PrunedSession, type PruneRequest } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { writeJournal } from './cursorJournal.js';
import { writeHeads } from './headRows.js';
import { journalRemoval } from './removeCursors.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, NO_COMMIT_CHECK, run } from './transaction.js';

/**
 * Events each prune batch takes (the port's `pruneBatchRows`). A batch awaits the server, so it
 * does not block the event loop and sizing it by time would shrink it to a few dozen rows of
 * round trips; 10,000 rows keep a batch's row and head locks to tens of milliseconds.
 */
export const PRUNE_BATCH_ROWS = 10_000;

/**
 * Adds the [sessionKey, highest deleted sequence, events deleted] rows of a delete statement to
 * `into` (each session's highest deleted sequence); returns how many events they count.
 */
function addDeleted(rows: readonly (readonly unknown[])[], into: Map<string, number>): number {
  let deleted = 0;
  for (const row of rows) {
    const sessionKey = row[0] as string;
    const sequence = Number(row[1]);
    deleted += Number(row[2]);
    const before = into.get(sessionKey);
    if (before === undefined || sequence > before) into.set(sessionKey, sequence);
  }
  return deleted;
}

/** Raises the prune watermarks of the sessions that lost events, locking their head rows in key order. */
async function raiseWatermarks(db: StoreDb, client: PoolClient, highest: ReadonlyMap<string, number>): Promise<PrunedSession[]> {
  if (highest.size === 0) return [];
  const keys = [...highest.keys()].sort();
  const locked = await run(client, db.statements.lockHeads, { sessionKeys: keys });
  const changes: HeadChange[] = locked.map((row) => ({
    sessionKey: row[0] as string,
    locked: headOfRow(row, 1),
    events: [{ type: 'pruned' as const, highestDeleted: asSequence(highest.get(row[0] as string) as number) }],
  }));
  return prunedSessions(changes, await writeHeads(db, client, changes));
}

/** What one journal batch did: entries deleted, and the window's facts (all but the end's probes, read in batchLeft). */
type JournalBatch = Omit<JournalWindowFacts, 'reachesEnd' | 'agedBeyond'> & { readonly deleted: number };

/**
 * One bounded batch of journal retention, by planJournalPrune's rule in SQL: in the window of
 * the first `batchSize` entries after `request.journalAfter`, the removable entries (see
 * `removableEntry` in adapters-sql-common: never the latest entry of a pair that has a cursor)
 * recorded before the cutoff, then the lowest removable ones while the journal is over
 * `maxRows`. A window, not the journal: a journal over its cap whose entries are all kept was
 * walked whole by every batch, server time spent finding nothing. The batch's end probes (an
 * entry after the window, an aged one) come in `batchLeft`, then journalWindowEnd decides.
 */
async function pruneJournal(db: StoreDb, client: PoolClient, request: PruneRequest, cutoff: number, byAge: boolean): Promise<JournalBatch> {
  const st = db.statements;
  const after = journalAfterOf(request);
  const [window] = request.batchSize > 0 ? await run(client, st.journalWindow, { after, size: request.batchSize }) : [];
  const highest = window?.[0];
  const upTo = highest === null || highest === undefined ? after : Number(highest);
  const aged = byAge && upTo > after ? (await run(client, st.deleteAgedJournal, { cutoff, after, upTo })).length : 0;
  const room = batchRoom(request, aged);
  const [excessRow] = await run(client, st.journalExcess, { maxRows: request.maxRows, limit: room + 1 });
  const excess = Number(excessRow?.[0] ?? 0);
  const { take } = journalCap(excess, room);
  const capped = take > 0 && upTo > after ? await run(client, st.deleteLowestJournal, { after, upTo, limit: take }) : [];
  const lastCapped = capped.reduce((last: number, row) => Math.max(last, Number(row[0])), after);
  return { deleted: aged + capped.length, after, lastExamined: upTo, excess, take, capped: capped.length, lastCapped };
}

export async function prune(db: StoreDb, request: PruneRequest): Promise<PruneBatch> {
  const st = db.statements;
  const { now, maxRows, batchSize } = request;
  const { cutoff, finite, byAge, cursorCutoff, cursorFinite, cursorsByAge } = retentionCutoff(request);
  const probe = pruneCountParams(request);
  return inTransaction(db, async (client) => {
    const highest = new Map<string, number>();

    // --- age: the oldest appends first ---
    const aged = byAge ? addDeleted(await run(client, st.deleteAgedEvents, { cutoff, limit: batchSize }), highest) : 0;

    // --- row cap: the lowest sequences (the earliest appends) beyond the newest maxRows ---
    // Rows another gateway's prune has locked are skipped: that prune covers them.
    const take = batchRoom(request, aged);
    let capLeft: boolean;
    let capped = 0;
    if (take > 0) {
      const lowest = await run(client, st.deleteCappedEvents, { maxRows, limit: take });
      capped = addDeleted(lowest, highest);
      // The cap is left when the highest deleted sequence is below the boundary.
      const deepest = Math.max(...lowest.map((row) => Number(row[1])));
      capLeft = capped > 0 && deepest < Number(lowest[0]?.[3]);
    } else {
      capLeft = (await run(client, st.capBoundary, { maxRows })).length > 0;
    }

    // --- prune watermarks: raised in the same transaction, as planHeadWrite computes them ---
    const pruned = await raiseWatermarks(db, client, highest);

    // --- idle cursors (journaled and signalled; their own age limit: cursorMaxAgeMs) ---
    const expired = cursorsByAge
      ? await journalRemoval(db, client, 'prune', await run(client, st.expireIdleCursors, { cutoff: cursorCutoff, limit: batchSize }), 'expired', now)
      : [];

    // --- material kept: the pending cursors (that stay) whose material the deleted events set ---
    if (pruned.length > 0) {
      const candidates = decodeStoredCursors(db, 'prune', await run(client, st.cursorsKeepingMaterial, { targets: pruned.map((session) => session.sessionKey) }));
      await writeJournal(db, client, planPruneMaterial({ pruned, cursors: candidates, now }).journal);
    }

    // --- the journal ---
    const journal = await pruneJournal(db, client, request, cutoff, byAge);

    // --- anything left? (one round trip: aged events, idle cursors, the journal after the window) ---
    const [left] = await run(client, st.batchLeft, { ...probe, byAge: finite, cursorsByAge: cursorFinite, after: journal.lastExamined });
    const journalEnd = journalWindowEnd({ ...journal, reachesEnd: left?.[2] !== true, agedBeyond: left?.[3] === true });
    const anyLeft = left?.[0] === true || left?.[1] === true;
    return { eventsDeleted: aged + capped, expiredCursors: expired, done: !anyLeft && !capLeft && journalEnd.done, journalAfter: journalEnd.journalAfter };
  }, NO_COMMIT_CHECK);
}
