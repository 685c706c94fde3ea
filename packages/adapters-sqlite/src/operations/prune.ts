// Retention: one bounded prune batch in one write transaction, the plan of a worker batch, and the progress guard.
import {
  batchRoom,
  decodeStoredCursors,
  headOfRow,
  journalAfterOf,
  journalCap,
  journalParams,
  planHeadWrites,
  prunedSessions,
  retentionCutoff,
  type HeadChange,
} from '@session-state/adapters-sql-common';
import {
  asSequence,
  journalWindowEnd,
  planPruneMaterial,
  type CursorPair,
  type CursorRow,
  type JournalWindowEnd,
  type PruneBatch,
  type PruneRequest,
  type SignalLogHead,
} from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import { withoutAutoCheckpoint, type CapRead, type CapWrites } from '../worker/storeWorker.js';
import { writeHead } from './headRow.js';
import { writeJournal } from './journal.js';
import { withLogMaterial } from './logMaterial.js';
import { journalRemoval } from './removal.js';

/**
 * A batch touches at most this many sessions. Each session's rows sit on their own pages of the
 * (session_key, sequence) index, so the pages a batch writes to the WAL (and the checkpoint
 * copies back) grow with the sessions it touches, not with its rows: the earliest 1,000 rows
 * of a log spread over 1,000 sessions write about twenty times the pages of 1,000 rows of one.
 */
export const SESSIONS_PER_BATCH = 400;

/**
 * Events a batch on the store's own connection deletes at most when the store offers worker
 * batches (the facade then asks for PRUNE_WORKER_BATCH_ROWS): the aged events, and the row cap
 * when the worker cannot run. About what the facade's time-sized batches took (a few ms).
 */
export const OWN_CONNECTION_BATCH_ROWS = 500;

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

/** One batch on the store's own connection (see `prune`). */
export interface PruneOutcome {
  readonly batch: PruneBatch;
  /** Events, cursors and journal entries deleted, for the caller's checkpoint schedule. */
  readonly rowsRemoved: number;
  /** Events beyond the row cap remain (after this batch). */
  readonly capLeft: boolean;
  /** Events older than the age limit remain: the row cap waits for them (it counts what ages out first). */
  readonly agedLeft: boolean;
  /** Everything but the row cap of events is done (aged events, idle cursors, the journal). */
  readonly restDone: boolean;
}

/** The batch's reads and writes, inside its write transaction. */
function pruneInTransaction(db: StoreDb, request: PruneRequest, capInline: boolean): PruneOutcome {
  const st = db.statements;
  const { now, maxRows } = request;
  const { cutoff, finite, byAge, cursorCutoff, cursorFinite, cursorsByAge } = retentionCutoff(request);
  const victims = new Victims();

  // --- age: the oldest appends first --------------------------------------------------------
  const sessionsLeft = byAge ? victims.take(st.agedEvents.all({ cutoff, limit: request.batchSize })) : true;
  for (const sequence of victims.sequences) st.deleteEvent.run({ sequence });
  const aged = victims.sequences.length;

  // --- row cap: the lowest sequences (the earliest appends) beyond the newest maxRows ------------
  const boundary = (st.capBoundary.get({ maxRows }) as [number] | undefined)?.[0];
  let capLeft = boundary !== undefined;
  const take = sessionsLeft && capInline ? batchRoom(request, aged) : 0;
  if (boundary !== undefined && take > 0) {
    victims.take(st.lowestEvents.all({ upTo: boundary, limit: take }));
    if (victims.sequences.length > aged) {
      // Taken in sequence order, they are every retained sequence from the first to the last.
      const to = victims.sequences[victims.sequences.length - 1] as number;
      st.deleteEventRange.run({ from: victims.sequences[aged] as number, to });
      capLeft = to < boundary;
    }
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

  // --- idle cursors (their own age limit: cursorMaxAgeMs) ---------------------------------------------------------------------------
  const expired: CursorPair[] = cursorsByAge ? journalRemoval(db, 'prune', st.expireIdleCursors.all({ cutoff: cursorCutoff, limit: request.batchSize }), 'expired', now) : [];

  // --- material kept: the pending cursors (that stay) whose material the deleted events set ------
  if (pruned.length > 0) {
    const onPruned: CursorRow[] = [];
    for (const { sessionKey } of pruned) onPruned.push(...withLogMaterial(db, decodeStoredCursors(db, 'prune', st.cursorsOnTarget.all(sessionKey))));
    writeJournal(db, planPruneMaterial({ pruned, cursors: onPruned, now }).journal);
  }

  // --- the journal ------------------------------------------------------------------------------
  const journal = pruneJournal(db, request, cutoff, byAge);

  // --- anything left? ---------------------------------------------------------------------------
  const agedLeft = finite && st.agedLeft.get({ cutoff }) !== undefined;
  const idleLeft = cursorFinite && st.idleLeft.get({ cutoff: cursorCutoff }) !== undefined;
  const restDone = !agedLeft && !idleLeft && journal.done;
  return {
    batch: { eventsDeleted, expiredCursors: expired, done: restDone && !capLeft, journalAfter: journal.journalAfter },
    rowsRemoved: eventsDeleted + expired.length + journal.deleted,
    capLeft,
    agedLeft,
    restDone,
  };
}

/**
 * One bounded batch of journal retention, by planJournalPrune's rule in SQL: in the window of
 * the first `batchSize` entries after `request.journalAfter`, the removable entries (see
 * `removableEntry` in adapters-sql-common: never the latest entry of a pair that has a cursor)
 * recorded before the cutoff, then the lowest removable ones while the journal is over
 * `maxRows`. `journalAfter` and `done` as journalWindowEnd decides them.
 */
function pruneJournal(db: StoreDb, request: PruneRequest, cutoff: number, byAge: boolean): { readonly deleted: number } & JournalWindowEnd {
  const st = db.statements;
  // A window, not the journal: a journal over its cap whose entries are all the latest of live
  // pairs (the restart scan at 1,000,000 cursors journals 100,000 of them) was walked whole, in
  // position order with two index lookups per entry, by the cap's delete and then again by the
  // probe for removable entries left, finding nothing: 190-450 ms blocks of a gateway's start-up.
  const after = journalAfterOf(request);
  const highest = request.batchSize > 0 ? (st.journalWindow.get({ after, size: request.batchSize }) as [number | null])[0] : null;
  const upTo = highest ?? after;
  const aged = byAge && upTo > after ? st.deleteAgedJournal.run({ cutoff, after, upTo }).changes : 0;
  const room = batchRoom(request, aged);
  const excess = (st.journalExcess.get({ maxRows: request.maxRows, limit: room + 1 }) as [number])[0];
  const { take } = journalCap(excess, room);
  const capped = take > 0 && upTo > after ? (st.deleteLowestJournal.all({ after, upTo, limit: take }) as [number][]) : [];
  const end = journalWindowEnd({
    after,
    lastExamined: upTo,
    reachesEnd: st.journalEntryAfter.get({ after: upTo }) === undefined,
    excess,
    take,
    capped: capped.length,
    lastCapped: capped.reduce((last, [position]) => Math.max(last, position), after),
    agedBeyond: Number.isFinite(cutoff) && st.agedJournalAfter.get({ cutoff, after: upTo }) !== undefined,
  });
  return { deleted: aged + capped.length, ...end };
}

/**
 * One bounded retention batch (at most `batchSize` events and cursors); `done` when nothing is
 * left; `rowsRemoved` counts the events, cursors and journal entries it deleted, for the
 * caller's checkpoint schedule (see CHECKPOINT_AFTER_ROWS). With `capInline` false the row cap
 * is left to the prune worker (pruneWorker.ts): the batch only reports whether events beyond it
 * remain (`capLeft`). The WAL auto-checkpoint is held off
 * during the batch's commit, so copying the WAL back never lands inside the batch.
 */
export function prune(db: StoreDb, request: PruneRequest, { capInline = true }: { readonly capInline?: boolean } = {}): PruneOutcome {
  return withoutAutoCheckpoint(db.client, () => db.client.transaction(() => pruneInTransaction(db, request, capInline)).immediate());
}

/**
 * Plans a worker batch at `now` on the store's connection (which reads the targets' notify marks;
 * the worker's lock keeps them as they are); a corrupt cursor row is reported and left out, as on the main thread.
 */
export function planCapWrites(db: StoreDb, read: CapRead, now: number): CapWrites {
  const locked = new Map<string, readonly unknown[]>();
  for (const row of read.heads) locked.set(row[0] as string, row);
  const changes: HeadChange[] = read.sessions.map((row) => {
    const sessionKey = row[0] as string;
    const head = locked.get(sessionKey);
    return { sessionKey, locked: head === undefined ? undefined : headOfRow(head, 1), events: [{ type: 'pruned', highestDeleted: asSequence(row[1] as number) }] };
  });
  const { writes, after } = planHeadWrites(changes);
  const pruned = prunedSessions(changes, after);
  const { journal } = planPruneMaterial({ pruned, cursors: withLogMaterial(db, decodeStoredCursors(db, 'prune', read.cursors)), now });
  return { heads: writes, journal: journal.map(journalParams) };
}
