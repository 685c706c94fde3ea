// Retention: one bounded prune batch in one write transaction, and the plan of a worker batch.
import { decodeStoredCursors, headOfRow, journalParams, journalWindowParams, planJournalRows, planPrunedHeads, retentionCutoff } from '@session-state/adapters-sql-common';
import { journalWindowEnd, planPruneMaterial, type CursorPair, type JournalWindowEnd, type PruneBatch, type PruneRequest } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import type { CapRead, CapWrites } from '../worker/storeWorker.js';
import { withoutAutoCheckpoint } from '../worker/walBound.js';
import { writeJournal } from './journal.js';
import { readHead, withLogMaterial, writeHeads } from './logMaterial.js';
import { journalRemoval } from './removal.js';

/** A batch touches at most this many sessions: the index pages it writes grow with its sessions, not its rows. */
export const SESSIONS_PER_BATCH = 400;

/** Events one part on the store's own connection deletes at most; a prune call runs parts with a turn of the event loop between. */
export const OWN_CONNECTION_BATCH_ROWS = 500;

/** The events one batch deletes, chosen in retention order, and each session's highest sequence among them. */
class Victims {
  readonly sequences: number[] = [];
  readonly highest = new Map<string, number>();

  /** Takes `rows` ([sequence, sessionKey]) until the batch would touch one session too many; false when it stopped early. */
  take(rows: readonly unknown[][]): boolean {
    for (const [sequence, sessionKey] of rows as readonly [number, string][]) {
      const before = this.highest.get(sessionKey);
      if (before === undefined && this.highest.size === SESSIONS_PER_BATCH) return false;
      if (before === undefined || sequence > before) this.highest.set(sessionKey, sequence);
      this.sequences.push(sequence);
    }
    return true;
  }
}

interface PruneOutcome {
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

function pruneInTransaction(db: StoreDb, request: PruneRequest, capInline: boolean): PruneOutcome {
  const st = db.statements;
  const { now, maxRows } = request;
  const { cutoff, finite, byAge, cursorCutoff, cursorFinite, cursorsByAge } = retentionCutoff(request);
  const victims = new Victims();

  // Age: the oldest appends first.
  const sessionsLeft = byAge ? victims.take(st.agedEvents.all({ cutoff, limit: request.batchSize })) : true;
  for (const sequence of victims.sequences) st.deleteEvent.run({ sequence });
  const aged = victims.sequences.length;

  // Row cap: the lowest sequences beyond the newest maxRows.
  const boundary = (st.capBoundary.get({ maxRows }) as [number] | undefined)?.[0];
  let capLeft = boundary !== undefined;
  const take = sessionsLeft && capInline ? Math.max(0, request.batchSize - aged) : 0;
  if (boundary !== undefined && take > 0) {
    victims.take(st.lowestEvents.all({ upTo: boundary, limit: take }));
    if (victims.sequences.length > aged) {
      const to = victims.sequences[victims.sequences.length - 1] as number;
      st.deleteEventRange.run({ from: victims.sequences[aged] as number, to });
      capLeft = to < boundary;
    }
  }
  const eventsDeleted = victims.sequences.length;

  // Prune watermarks raised in the same transaction.
  const { writes, pruned } = planPrunedHeads(Array.from(victims.highest, ([sessionKey, sequence]) => [sessionKey, readHead(db, sessionKey), sequence] as const));
  writeHeads(db, writes);

  const expired: CursorPair[] = cursorsByAge ? journalRemoval(db, 'prune', st.expireIdleCursors.all({ cutoff: cursorCutoff, limit: request.batchSize }), 'expired', now) : [];

  // material_kept for the pending cursors whose material went.
  if (pruned.length > 0) {
    const onPruned = pruned.flatMap(({ sessionKey }) => withLogMaterial(db, decodeStoredCursors(db, 'prune', st.cursorsOnTarget.all(sessionKey))));
    writeJournal(db, planPruneMaterial({ pruned, cursors: onPruned, now }).journal);
  }

  const journal = pruneJournal(db, request, cutoff);

  const agedLeft = finite && st.agedLeft.get({ cutoff }) !== undefined;
  const idleLeft = cursorFinite && st.idleLeft.get({ cutoff: cursorCutoff }) !== undefined;
  const restDone = !agedLeft && !idleLeft && journal.done;
  const batch = { eventsDeleted, expiredCursors: expired, done: restDone && !capLeft, journalAfter: journal.journalAfter };
  return { batch, rowsRemoved: eventsDeleted + expired.length + journal.deleted, capLeft, agedLeft, restDone };
}

/** Journal retention over the window of `batchSize` entries after `journalAfter` (planJournalWindow), so no batch walks the whole journal. */
function pruneJournal(db: StoreDb, request: PruneRequest, cutoff: number): { readonly deleted: number } & JournalWindowEnd {
  const st = db.statements;
  const beyondCap = (st.journalExcess.get({ maxRows: request.maxRows, limit: request.batchSize + 1 }) as [number])[0];
  const { positions, facts, reachesEnd } = planJournalRows(st.journalWindowEntries.all(journalWindowParams(request, beyondCap)), request, beyondCap);
  if (positions.length > 0) st.deleteJournalEntries.run({ positions: JSON.stringify(positions) });
  const agedBeyond = Number.isFinite(cutoff) && st.agedJournalAfter.get({ cutoff, after: facts.lastExamined }) !== undefined;
  return { deleted: positions.length, ...journalWindowEnd({ ...facts, reachesEnd, agedBeyond }) };
}

/** One bounded retention batch in one write transaction; with `capInline` false the row cap is left to the worker. */
export function prune(db: StoreDb, request: PruneRequest, { capInline = true }: { readonly capInline?: boolean } = {}): PruneOutcome {
  return withoutAutoCheckpoint(db.client, () => db.client.transaction(() => pruneInTransaction(db, request, capInline)).immediate());
}

/** Plans a worker batch's head writes and `material_kept` entries from what it read under its lock. */
export function planCapWrites(db: StoreDb, read: CapRead, now: number): CapWrites {
  const locked = new Map(read.heads.map((row) => [row[0] as string, headOfRow(row, 1)]));
  const { writes, pruned } = planPrunedHeads(read.sessions.map(([sessionKey, highest]) => [sessionKey as string, locked.get(sessionKey as string), highest as number] as const));
  const { journal } = planPruneMaterial({ pruned, cursors: withLogMaterial(db, decodeStoredCursors(db, 'prune', read.cursors)), now });
  return { heads: writes, journal: journal.map(journalParams) };
}
