// The operator's maintenance on the store's schema: what a prune would do (counted, nothing
// written) and VACUUM of the store's tables with their size before and after.
import { previewOfCounts, pruneCountParams } from '@session-state/adapters-sql-common';
import type { PrunePreview, PruneRequest, VacuumResult } from '@session-state/domain';

import type { StoreDb } from './storeDb.js';
import { runAlone } from './transaction.js';
import { withUnboundedClient } from './unboundedClient.js';
import { pgCore } from './drizzle.js';

const { getTableConfig } = pgCore;

/** What `prune` run to completion with `request` would delete and expire; reads only. */
export async function previewPrune(db: StoreDb, request: PruneRequest): Promise<PrunePreview> {
  const [row] = await runAlone(db, db.statements.pruneCounts, pruneCountParams(request));
  return previewOfCounts(row, request);
}

/** The store's data tables as quoted, schema-qualified names. */
function tableNames(db: StoreDb): string[] {
  const { events, heads, cursors, cursorJournal } = db.tables;
  return [events, heads, cursors, cursorJournal].map((table) => {
    const config = getTableConfig(table);
    const quote = (name: string): string => `"${name.replace(/"/gu, '""')}"`;
    return `${quote(config.schema ?? 'public')}.${quote(config.name)}`;
  });
}

/** Bytes of the store's tables with their indexes and TOAST. */
async function storeBytes(db: StoreDb, names: readonly string[]): Promise<number> {
  const result = await db.pool.query<{ bytes: string | null }>('SELECT sum(pg_total_relation_size(t::regclass))::text AS bytes FROM unnest($1::text[]) AS t', [names]);
  return Number(result.rows[0]?.bytes ?? 0);
}

/**
 * VACUUM of the store's tables (not FULL: it takes no lock that stops a gateway, and gives the
 * space of pruned rows back to the tables, returning to the OS only the empty pages at their ends).
 * On a connection without the store's statement bound: a large table's VACUUM may take minutes.
 */
export async function vacuum(db: StoreDb): Promise<VacuumResult> {
  const names = tableNames(db);
  const bytesBefore = await storeBytes(db, names);
  await withUnboundedClient(db.unboundedConfig, (client) => client.query(`VACUUM ${names.join(', ')}`));
  return { bytesBefore, bytesAfter: await storeBytes(db, names) };
}
