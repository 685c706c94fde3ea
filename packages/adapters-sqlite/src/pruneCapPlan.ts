// The main thread's part of a prune worker batch (see pruneWorker.ts): from the rows the worker
// read under its write lock, the head writes (`planHeadWrites`: prune watermarks raised over what
// goes) and the `material_kept` journal entries (`planPruneMaterial`) it writes in the same
// transaction, as prune.ts computes them for a batch on the store's own connection.
import { decodeStoredCursors, headOfRow, journalParams, planHeadWrites, prunedSessions, type HeadChange, type HeadRowWrite, type JournalParams } from '@session-state/adapters-sql-common';
import { asSequence, planPruneMaterial } from '@session-state/domain';

import { withLogMaterial } from './logMaterial.js';
import type { StoreDb } from './storeDb.js';

/** What the worker read under its write lock: the rows a batch deletes summed up per session. */
export interface CapRead {
  /** [sessionKey, highest sequence the batch deletes from it], one per session. */
  readonly sessions: readonly (readonly unknown[])[];
  /** headsOfKeys rows ([sessionKey, head, pruneWatermark]) of those sessions that have one. */
  readonly heads: readonly (readonly unknown[])[];
  /** The cursors on those sessions as targets, as CursorValues rows. */
  readonly cursors: readonly (readonly unknown[])[];
}

/** What the worker writes before its delete, in the same transaction. */
export interface CapWrites {
  readonly heads: readonly HeadRowWrite[];
  readonly journal: readonly JournalParams[];
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
