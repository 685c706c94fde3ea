// One bounded batch of retention in one write transaction: events older than the age limit,
// then the lowest sequences beyond the row cap, prune watermarks raised over what went (by
// `planHeadWrite`), cursors idle beyond the age limit expired (`planRemoval`), `material_kept`
// for the pending cursors whose material went (`planPruneMaterial`), and the journal by
// `planJournalPrune`'s rule; the WAL checkpoint that follows runs in its own turn.
import { decodeStoredCursors, prunedSessions, retentionCutoff, rowCapTake, type HeadChange } from '@session-state/adapters-sql-common';
import { asSequence, planPruneMaterial, type CursorPair, type CursorRow, type PruneBatch, type PruneRequest, type SignalLogHead } from '@session-state/domain';

import { writeJournal } from './cursorJournal';
import { writeHead } from './headRow';
import { journalRemoval } from './removeCursors';
import type { StoreDb } from './storeDb';

/**
 * A batch that removed at least this many rows asks for a checkpoint of its own. Rows of many
 * sessions sit on as many index pages, so a big batch writes about one WAL page per row; left
 * to the auto-checkpoint (every 1,000 pages), the copy of those pages back to the database file
 * would land inside the commit that crosses the threshold, doubling that block. A checkpoint
 * after each big batch, in its own turn, keeps every block about one batch long.
 */
export const CHECKPOINT_AFTER_ROWS = 64;

/**
 * A batch touches at most this many sessions. Each session's rows sit on their own pages of the
 * (session_key, sequence) index, so the pages a batch writes to the WAL (and the checkpoint
 * copies back) grow with the sessions it touches, not with its rows: the earliest 1,000 rows
 * of a log spread over 1,000 sessions write about twenty times the pages of 1,000 rows of one.
 */
export const SESSIONS_PER_BATCH = 400;

/** The events one batch deletes, chosen in retention order, and each session's highest sequence among them. */
class Victims {
  readonly sequences: number[] = [];
  readonly highest = new Map<string, number>();

  /**
   * Takes `rows` ([sequence, sessionKey], in the order to delete) until the batch would touch
   * one session too many; returns false when it stopped early.
   */
  take(rows: readonly unknown[][]): boolean {
    for (const row of rows) {
      const sequence = row[0] as number;
      const sessionKey = row[1] as string;
      const before = this.highest.get(sessionKey);
      if (before === undefined) {
        if (this.highest.size === SESSIONS_PER_BATCH) return false;
        this.highest.set(sessionKey, sequence);
      } else if (sequence > before) {
        this.highest.set(sessionKey, sequence);
      }
      this.sequences.push(sequence);
    }
    return true;
  }
}

/** The batch's reads and writes, inside its write transaction. */
function pruneInTransaction(db: StoreDb, request: PruneRequest): { readonly batch: PruneBatch; readonly rowsRemoved: number } {
  const st = db.statements;
  const { now, maxRows } = request;
  const { cutoff, finite, byAge } = retentionCutoff(request);
  const victims = new Victims();

  // --- age: the oldest appends first --------------------------------------------------------
  const room = byAge ? victims.take(st.agedEvents.all({ cutoff, limit: request.batchSize })) : true;
  for (const sequence of victims.sequences) st.deleteEvent.run({ sequence });
  const aged = victims.sequences.length;

  // --- row cap: the lowest sequences (the earliest appends) beyond maxRows ------------------------
  // The count reads the small appended_at index and costs a fraction of the deletes.
  let total = (st.countEvents.get({}) as [number])[0];
  const take = room ? rowCapTake(total, request, aged) : 0;
  if (take > 0) {
    victims.take(st.lowestEvents.all({ limit: take }));
    for (let i = aged; i < victims.sequences.length; i += 1) st.deleteEvent.run({ sequence: victims.sequences[i] as number });
    total -= victims.sequences.length - aged;
  }
  const eventsDeleted = victims.sequences.length;

  // --- prune watermarks: raised in the same transaction, as planHeadWrite computes them -----------
  const changes: HeadChange[] = [];
  const after = new Map<string, SignalLogHead>();
  for (const [sessionKey, sequence] of victims.highest) {
    const head = writeHead(db, sessionKey, [{ type: 'pruned', highestDeleted: asSequence(sequence) }]);
    changes.push(head.change);
    after.set(sessionKey, head.after);
  }
  const pruned = prunedSessions(changes, after);

  // --- idle cursors ---------------------------------------------------------------------------
  const expired: CursorPair[] = byAge ? journalRemoval(db, 'prune', st.expireIdleCursors.all({ cutoff, limit: request.batchSize }), 'expired', now) : [];

  // --- material kept: the pending cursors (that stay) whose material the deleted events set ------
  if (pruned.length > 0) {
    const onPruned: CursorRow[] = [];
    for (const { sessionKey } of pruned) onPruned.push(...decodeStoredCursors(db, 'prune', st.cursorsOnTarget.all({ target: sessionKey })));
    writeJournal(db, planPruneMaterial({ pruned, cursors: onPruned, now }).journal);
  }

  // --- the journal ------------------------------------------------------------------------------
  const journal = pruneJournal(db, request, cutoff, byAge);

  // --- anything left? ---------------------------------------------------------------------------
  const agedLeft = finite && st.agedLeft.get({ cutoff }) !== undefined;
  const idleLeft = finite && st.idleLeft.get({ cutoff }) !== undefined;
  const done = !agedLeft && !idleLeft && total <= maxRows && journal.done;
  return { batch: { eventsDeleted, expiredCursors: expired, done }, rowsRemoved: eventsDeleted + expired.length + journal.deleted };
}

/**
 * One bounded batch of journal retention, by planJournalPrune's rule in SQL: the removable
 * entries (see `removableEntry` in adapters-sql-common: never the latest entry of a pair that
 * has a cursor) recorded before the cutoff, then the oldest removable ones beyond `maxRows`, at
 * most `batchSize`; `done` stays false while removable entries the request would delete remain.
 */
function pruneJournal(db: StoreDb, request: PruneRequest, cutoff: number, byAge: boolean): { readonly deleted: number; readonly done: boolean } {
  const st = db.statements;
  const aged = byAge ? st.deleteAgedJournal.run({ cutoff, limit: request.batchSize }).changes : 0;
  let total = (st.countJournal.get({}) as [number])[0];
  const take = rowCapTake(total, request, aged);
  const capped = take > 0 ? st.deleteLowestJournal.run({ limit: take }).changes : 0;
  total -= capped;
  const agedLeft = Number.isFinite(cutoff) && st.agedJournalLeft.get({ cutoff }) !== undefined;
  const overCap = total > request.maxRows && st.removableJournalLeft.get({}) !== undefined;
  return { deleted: aged + capped, done: !agedLeft && !overCap };
}

/**
 * One bounded retention batch (at most `batchSize` events and cursors); `done` when nothing is
 * left. The WAL auto-checkpoint is held off during the batch's commit, so copying the WAL back
 * never lands inside the batch; `checkpointDue` tells the caller to run `checkpoint` in a later
 * turn of the event loop.
 */
export function prune(db: StoreDb, request: PruneRequest): { readonly batch: PruneBatch; readonly checkpointDue: boolean } {
  const { client } = db;
  const autocheckpoint = client.pragma('wal_autocheckpoint', { simple: true }) as number;
  client.pragma('wal_autocheckpoint = 0');
  try {
    const { batch, rowsRemoved } = client.transaction(() => pruneInTransaction(db, request)).immediate();
    return { batch, checkpointDue: rowsRemoved >= CHECKPOINT_AFTER_ROWS };
  } finally {
    // PRAGMA takes no bound parameters; the value is the integer just read back.
    client.pragma(`wal_autocheckpoint = ${Math.trunc(autocheckpoint)}`);
  }
}

/**
 * A passive checkpoint: copies what the WAL holds back to the database file without waiting
 * for other connections' readers. Housekeeping only, so a failure is ignored: the
 * auto-checkpoint of a later commit does the same work.
 */
export function checkpoint(db: StoreDb): void {
  if (!db.client.open) return;
  try {
    db.client.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // See above: nothing is lost, the next auto-checkpoint retries.
  }
}
