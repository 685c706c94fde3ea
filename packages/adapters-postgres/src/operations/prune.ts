// Retention: one bounded batch per transaction, skipping rows another gateway's prune locked (they share the work); the preview and VACUUM.
import { decodeStoredCursors, headOfRow, journalWindowParams, planJournalRows, planPrunedHeads, previewOfCounts, pruneCountParams, retentionCutoff } from '@session-state/adapters-sql-common';
import { journalWindowEnd, planPruneMaterial, type PruneBatch, type PrunedSession, type PrunePreview, type PruneRequest, type VacuumResult } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { withUnboundedClient } from '../connection/pool.js';
import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from '../connection/transaction.js';
import { pgCore } from '../drizzle.js';
import type { StoreDb } from '../storeDb.js';
import { writeJournal } from './journal.js';
import { journalRemoval, writeHeads } from './removal.js';

/** Adds each session's highest deleted sequence from [sessionKey, highest, count] rows to `into`; returns the events counted. */
function addDeleted(rows: readonly (readonly unknown[])[], into: Map<string, number>): number {
  let deleted = 0;
  for (const [sessionKey, highest, count] of rows as readonly (readonly [string, unknown, unknown])[]) {
    deleted += Number(count);
    into.set(sessionKey, Math.max(Number(highest), into.get(sessionKey) ?? 0));
  }
  return deleted;
}

/** Raises the prune watermarks of the sessions that lost events, locking their head rows in key order. */
async function raiseWatermarks(db: StoreDb, client: PoolClient, highest: ReadonlyMap<string, number>): Promise<PrunedSession[]> {
  if (highest.size === 0) return [];
  const locked = await run(client, db.statements.lockHeads, { sessionKeys: [...highest.keys()].sort() });
  const { writes, pruned } = planPrunedHeads(locked.map((row) => [row[0] as string, headOfRow(row, 1), highest.get(row[0] as string) as number] as const));
  await writeHeads(db, client, writes);
  return pruned;
}

/** Journal retention over the window of `batchSize` entries after `journalAfter` (planJournalWindow), so no batch walks the whole journal. */
async function pruneJournal(db: StoreDb, client: PoolClient, request: PruneRequest) {
  const st = db.statements;
  const [excessRow] = await run(client, st.journalExcess, { maxRows: request.maxRows, limit: request.batchSize + 1 });
  const beyondCap = Number(excessRow?.[0] ?? 0);
  const plan = planJournalRows(await run(client, st.journalWindowEntries, journalWindowParams(request, beyondCap)), request, beyondCap);
  if (plan.positions.length > 0) await run(client, st.deleteJournalEntries, { positions: plan.positions });
  return plan;
}

export async function prune(db: StoreDb, request: PruneRequest): Promise<PruneBatch> {
  const st = db.statements;
  const { now, maxRows, batchSize } = request;
  const { cutoff, finite, byAge, cursorCutoff, cursorFinite, cursorsByAge } = retentionCutoff(request);
  const probe = pruneCountParams(request);
  return inTransaction(db, async (client) => {
    const highest = new Map<string, number>();
    const aged = byAge ? addDeleted(await run(client, st.deleteAgedEvents, { cutoff, limit: batchSize }), highest) : 0;
    // The row cap: the lowest sequences beyond the newest maxRows; left when the highest deleted is below the boundary.
    const take = Math.max(0, batchSize - aged);
    let capLeft: boolean;
    let capped = 0;
    if (take > 0) {
      const lowest = await run(client, st.deleteCappedEvents, { maxRows, limit: take });
      capped = addDeleted(lowest, highest);
      const deepest = Math.max(...lowest.map((row) => Number(row[1])));
      capLeft = capped > 0 && deepest < Number(lowest[0]?.[3]);
    } else {
      capLeft = (await run(client, st.capBoundary, { maxRows })).length > 0;
    }
    const pruned = await raiseWatermarks(db, client, highest);
    const idle = cursorsByAge ? await run(client, st.expireIdleCursors, { cutoff: cursorCutoff, limit: batchSize }) : [];
    const expired = await journalRemoval(db, client, 'prune', idle, 'expired', now);
    if (pruned.length > 0) {
      const candidates = decodeStoredCursors(db, 'prune', await run(client, st.cursorsKeepingMaterial, { targets: pruned.map((session) => session.sessionKey) }));
      await writeJournal(db, client, planPruneMaterial({ pruned, cursors: candidates, now }).journal);
    }
    const journal = await pruneJournal(db, client, request);
    // Anything left: aged events, idle cursors, the journal after the window (one round trip).
    const [left] = await run(client, st.batchLeft, { ...probe, byAge: finite, cursorsByAge: cursorFinite, after: journal.facts.lastExamined });
    const journalEnd = journalWindowEnd({ ...journal.facts, reachesEnd: journal.reachesEnd, agedBeyond: left?.[2] === true });
    const anyLeft = left?.[0] === true || left?.[1] === true;
    return { eventsDeleted: aged + capped, expiredCursors: expired, done: !anyLeft && !capLeft && journalEnd.done, journalAfter: journalEnd.journalAfter };
  }, NO_COMMIT_CHECK);
}

/** What `prune` run to completion with `request` would delete and expire; reads only. */
export async function previewPrune(db: StoreDb, request: PruneRequest): Promise<PrunePreview> {
  const [row] = await runAlone(db, db.statements.pruneCounts, pruneCountParams(request));
  return previewOfCounts(row, request);
}

/** Bytes of the store's tables with their indexes and TOAST. */
async function storeBytes(db: StoreDb, names: readonly string[]): Promise<number> {
  const result = await db.pool.query<{ bytes: string | null }>('SELECT sum(pg_total_relation_size(t::regclass))::text AS bytes FROM unnest($1::text[]) AS t', [names]);
  return Number(result.rows[0]?.bytes ?? 0);
}

/** VACUUM (not FULL: no lock that stops a gateway) of the store's tables, on a connection without the statement bound. */
export async function vacuum(db: StoreDb): Promise<VacuumResult> {
  // The data tables as quoted, schema-qualified names (the schema name is checked, the table names are the store's own).
  const { events, heads, cursors, cursorJournal } = db.tables;
  const names = [events, heads, cursors, cursorJournal].map((table) => pgCore.getTableConfig(table)).map(({ schema, name }) => `"${schema ?? 'public'}"."${name}"`);
  const bytesBefore = await storeBytes(db, names);
  await withUnboundedClient(db.unboundedConfig, (client) => client.query(`VACUUM ${names.join(', ')}`));
  return { bytesBefore, bytesAfter: await storeBytes(db, names) };
}
