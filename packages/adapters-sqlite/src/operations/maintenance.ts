// The operator's maintenance on a SQLite file: what a prune would do (counted, nothing written)
// and VACUUM with the bytes it gave back.
import fs from 'node:fs';
import { previewOfCounts, pruneCountParams } from '@session-state/adapters-sql-common';
import type { PrunePreview, PruneRequest, VacuumResult } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';

/** What `prune` run to completion with `request` would delete and expire; reads only. */
export function previewPrune(db: StoreDb, request: PruneRequest): PrunePreview {
  return previewOfCounts(db.statements.pruneCounts.get(pruneCountParams(request)) as unknown[] | undefined, request);
}

/** The bytes of the file and its WAL (an in-memory database: its pages). */
function storeBytes(db: StoreDb, path: string): number {
  if (path === ':memory:') return (db.client.pragma('page_count') as number) * (db.client.pragma('page_size') as number);
  const size = (file: string): number => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  return size(path) + size(`${path}-wal`);
}

/**
 * Copies the WAL back, rebuilds the file without its free pages (VACUUM: it holds the write
 * lock for the whole rebuild, seconds on a large file) and truncates the WAL.
 */
export function vacuum(db: StoreDb, path: string): VacuumResult {
  const bytesBefore = storeBytes(db, path);
  db.client.pragma('wal_checkpoint(TRUNCATE)');
  db.client.exec('VACUUM');
  db.client.pragma('wal_checkpoint(TRUNCATE)');
  return { bytesBefore, bytesAfter: storeBytes(db, path) };
}
