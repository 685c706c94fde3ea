// `npm run bench:tombstones [-- --sessions N] [-- --pg-url url]`: what a tombstone head costs. A
// session whose events were all pruned keeps its head row (its state version and prune
// watermark) for ever, so heads stay monotonic and `historyGap` exact; this measures the bytes
// one such head holds in each store, so the README can state the cost per session.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { statSync } from 'node:fs';

import { createMemoryStore } from '@session-state/adapters-memory';
import { openPostgresStore } from '@session-state/adapters-postgres';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createSessionStateAwareness } from '@session-state/app';
import type { StateStore } from '@session-state/domain';
import Database from 'better-sqlite3';
import { Client } from 'pg';

import { createTempDir } from './harness/context.js';

// --- the workload ----------------------------------------------------------------------------

const quietLogger = { warn: (): void => undefined, error: (): void => undefined };

/** A key of the length a gateway's keys have (`agent:<id>:subagent:<uuid-ish>`). */
const keyOf = (i: number): string => `agent:main:subagent:child-${String(i).padStart(8, '0')}`;

/** Records one event on each of `sessions` keys, then prunes every event (a row cap of 1). */
async function fillWithTombstones(store: StateStore, sessions: number): Promise<void> {
  const awareness = await createSessionStateAwareness({ store, logger: quietLogger, retention: { maxRows: 1 } });
  const chunk = 1000;
  for (let start = 0; start < sessions; start += chunk) {
    const calls: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(sessions, start + chunk); i += 1) {
      calls.push(awareness.record({ sessionKey: keyOf(i), kind: 'goal_changed', actorType: 'human', summary: 'goal edited' }));
    }
    await Promise.all(calls);
  }
  await awareness.prune();
  const [last] = await awareness.list([keyOf(sessions - 1)]);
  if (last?.stateVersion === undefined) throw new Error('the last tombstone head is missing');
  await awareness.close();
}

// --- per store -------------------------------------------------------------------------------

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
  const after = heapUsed();
  // The store (closed, but still holding its maps) stays reachable until the heap was measured.
  kept.push(store);
  return (after - before) / sessions;
}

function sqliteFileBytes(path: string): number {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.close();
  return statSync(path).size;
}

async function sqliteBytesPerHead(path: string, sessions: number): Promise<number> {
  await createSessionStateAwareness({ store: openSqliteStore({ path }), logger: quietLogger }).then((a) => a.close());
  const empty = sqliteFileBytes(path);
  await fillWithTombstones(openSqliteStore({ path }), sessions);
  return (sqliteFileBytes(path) - empty) / sessions;
}

async function postgresBytesPerHead(connectionString: string, sessions: number): Promise<number> {
  const schema = `tombstones_${process.pid}`;
  const admin = new Client({ connectionString });
  await admin.connect();
  try {
    await fillWithTombstones(await openPostgresStore({ connectionString, schema }), sessions);
    await admin.query(`VACUUM FULL "${schema}".heads`);
    const { rows } = await admin.query<{ bytes: string }>(`SELECT pg_total_relation_size('"${schema}".heads') AS bytes`);
    return Number(rows[0]?.bytes ?? 0) / sessions;
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

// --- main ------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const valueOf = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
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
