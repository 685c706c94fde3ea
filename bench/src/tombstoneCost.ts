// `npm run bench:tombstones [-- --sessions N] [-- --pg-url url]`: the bytes one tombstone head
// (a session whose events were all pruned; its head row stays) holds in each store.
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { createMemoryStore } from '@session-state/adapters-memory';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import type { StateStore } from '@session-state/domain';
import Database from 'better-sqlite3';
import { Client } from 'pg';

import { createTempDir } from './harness/context.js';
import { openPgLibraryStore, startOnStore } from './library/facade.js';

/** A key of the length a gateway's keys have. */
const keyOf = (i: number): string => `agent:main:subagent:child-${String(i).padStart(8, '0')}`;

/** Records one event on each of `sessions` keys, then prunes every event (a row cap of 1). */
async function fillWithTombstones(store: StateStore, sessions: number): Promise<void> {
  const awareness = await startOnStore(store, { maxRows: 1 });
  for (let start = 0; start < sessions; start += 1000) {
    const calls = [];
    for (let i = start; i < Math.min(sessions, start + 1000); i += 1) calls.push(awareness.record({ sessionKey: keyOf(i), kind: 'goal_changed', actorType: 'human', summary: 'goal edited' }));
    await Promise.all(calls);
  }
  await awareness.prune();
  const [last] = await awareness.list([keyOf(sessions - 1)]);
  if (last?.stateVersion === undefined) throw new Error('the last tombstone head is missing');
  await awareness.close();
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Stores kept reachable while the heap is measured. */
const kept: unknown[] = [];

function heapUsed(): number {
  for (let i = 0; i < 3; i += 1) gc();
  return process.memoryUsage().heapUsed;
}

async function memoryBytesPerHead(sessions: number): Promise<number> {
  const store = createMemoryStore();
  const before = heapUsed();
  await fillWithTombstones(store, sessions);
  kept.push(store);
  return (heapUsed() - before) / sessions;
}

function sqliteFileBytes(path: string): number {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.close();
  return statSync(path).size;
}

async function sqliteBytesPerHead(path: string, sessions: number): Promise<number> {
  await (await startOnStore(openSqliteStore({ path }))).close();
  const empty = sqliteFileBytes(path);
  await fillWithTombstones(openSqliteStore({ path }), sessions);
  return (sqliteFileBytes(path) - empty) / sessions;
}

async function postgresBytesPerHead(url: string, sessions: number): Promise<number> {
  const schema = `tombstones_${process.pid}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await fillWithTombstones(await openPgLibraryStore({ url, schema, maxConnections: 10 }), sessions);
    await admin.query(`VACUUM FULL "${schema}".heads`);
    const { rows } = await admin.query<{ bytes: string }>(`SELECT pg_total_relation_size('"${schema}".heads') AS bytes`);
    return Number(rows[0]?.bytes ?? 0) / sessions;
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const valueOf = (flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const sessions = Number(valueOf('--sessions') ?? 100_000);
  if (!Number.isSafeInteger(sessions) || sessions < 1) throw new Error('--sessions takes a positive whole number');
  const pgUrl = valueOf('--pg-url') ?? process.env['SESSION_STATE_PG_URL'];
  const temp = createTempDir();
  try {
    const rows: Array<[string, number]> = [
      ['memory (heap)', await memoryBytesPerHead(sessions)],
      ['SQLite (file, vacuumed)', await sqliteBytesPerHead(temp.tempDb('tombstones'), sessions)],
    ];
    if (pgUrl !== undefined && pgUrl !== '') rows.push(['PostgreSQL (heads table and index)', await postgresBytesPerHead(pgUrl, sessions)]);
    kept.length = 0;
    console.log(`tombstone heads: ${sessions.toLocaleString('en-US')} sessions, every event pruned, keys of ${keyOf(0).length} characters`);
    for (const [store, bytes] of rows) console.log(`  ${store.padEnd(36)} ${bytes.toFixed(0).padStart(5)} bytes per session`);
  } finally {
    temp.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
