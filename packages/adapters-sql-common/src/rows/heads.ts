// Head rows as both adapters read and write them (planHeadWrite folds the events: the head rules are the domain's), and the overview.
import { asSequence, initialHead, planHeadWrite, type HeadRow, type PrunedSession, type SessionKey, type SignalLogEvent, type SignalLogHead, type CorruptRowSink, type StoreOverview } from '@session-state/domain';

import { decodeStoredCursors } from './storedRow.js';

/** A head row read under the write lock (undefined: the session has none) and the events to fold into it. */
export interface HeadChange {
  readonly sessionKey: string;
  readonly locked: SignalLogHead | undefined;
  readonly events: readonly SignalLogEvent[];
}

/** A head row to write: `insert` for a session that had none. */
export interface HeadRowWrite {
  readonly sessionKey: string;
  readonly insert: boolean;
  readonly head: number;
  readonly pruneWatermark: number;
}

/** The rows to write for `changes`, and each session's head after them (the locked one, or initialHead, when nothing rises). */
export function planHeadWrites(changes: readonly HeadChange[]): { readonly writes: HeadRowWrite[]; readonly after: Map<string, SignalLogHead> } {
  const writes: HeadRowWrite[] = [];
  const after = new Map<string, SignalLogHead>();
  for (const { sessionKey, locked, events } of changes) {
    const write = planHeadWrite(locked, events);
    after.set(sessionKey, write.type === 'none' ? (locked ?? initialHead) : write.head);
    if (write.type !== 'none') writes.push({ sessionKey, insert: write.type === 'insert', head: write.head.head, pruneWatermark: write.head.pruneWatermark });
  }
  return { writes, after };
}

/** A session a prune batch deleted from: its head row as read under the write lock (undefined: none), and the highest sequence deleted. */
type PrunedRow = readonly [sessionKey: string, locked: SignalLogHead | undefined, highestDeleted: number];

/** The head writes of a prune batch, and each session's watermark before and after it (for planPruneMaterial). */
export function planPrunedHeads(deleted: readonly PrunedRow[]): { readonly writes: HeadRowWrite[]; readonly pruned: PrunedSession[] } {
  const changes = deleted.map(([sessionKey, locked, highest]): HeadChange => ({ sessionKey, locked, events: [{ type: 'pruned', highestDeleted: asSequence(highest) }] }));
  const { writes, after } = planHeadWrites(changes);
  const pruned = changes.map(({ sessionKey, locked }) => ({
    sessionKey: sessionKey as SessionKey,
    before: (locked ?? initialHead).pruneWatermark,
    after: (after.get(sessionKey) ?? initialHead).pruneWatermark,
  }));
  return { writes, pruned };
}

/** A `readHeads` row ([sessionKey, head, pruneWatermark]) as the port's HeadRow. */
export function headRowOf(row: readonly unknown[]): HeadRow {
  return { sessionKey: row[0] as SessionKey, head: asSequence(row[1] as number), pruneWatermark: asSequence(row[2] as number) };
}

/** The found head rows, one per distinct key of `sessionKeys` that has one, in the order the keys were first given. */
export function headsInKeyOrder(sessionKeys: readonly string[], found: Iterable<readonly unknown[]>): HeadRow[] {
  const byKey = new Map<string, readonly unknown[]>();
  for (const row of found) byKey.set(row[0] as string, row);
  const rows: HeadRow[] = [];
  for (const key of sessionKeys) {
    const row = byKey.get(key);
    if (row === undefined) continue;
    rows.push(headRowOf(row));
    // Taken: a repeated key finds nothing, so each is listed once, where first given.
    byKey.delete(key);
  }
  return rows;
}

/** The overview of `counts` (the overviewCounts row; PostgreSQL's bigints come as strings), head rows and cursor rows. */
export function overviewOfRows(sink: CorruptRowSink, counts: readonly unknown[], heads: readonly (readonly unknown[])[], cursors: readonly (readonly unknown[])[]): StoreOverview {
  const [sessions, highestHead, prunedSessions, cursorCount, pendingPairs, pendingNotices] = counts.map(Number) as [number, number, number, number, number, number];
  return {
    counts: { sessions, cursors: cursorCount, pendingPairs, pendingNotices, highestHead, prunedSessions },
    heads: heads.map(headRowOf),
    cursors: decodeStoredCursors(sink, 'readOverview', cursors),
  };
}
