// A child process for the node:sqlite-only test: with better-sqlite3 hidden (hideBetterSqlite3.js),
// the BUILT store refuses the default driver clearly, and on node:sqlite appends, prunes in its
// worker thread and checkpoints in its worker thread; it prints what happened as JSON.
'use strict';
const { decodeRecordInput } = require('@session-state/domain');
const { openSqliteStore } = require('../../dist/index.js');
const { openStoreDb } = require('../../dist/db/openStoreDb.js');
const { createStoreWorker } = require('../../dist/worker/storeWorker.js');

const path = process.argv[2];
const out = {};

async function main() {
  try {
    openSqliteStore({ path });
    out.defaultDriver = 'opened';
  } catch (error) {
    out.defaultDriver = error.message;
  }
  const store = openSqliteStore({ path, driver: 'node:sqlite' });
  const command = (i) => decodeRecordInput({ sessionKey: 'agent:a:main', kind: 'goal_changed', actorType: 'agent', actorSessionKey: 'agent:b:main', summary: `change ${i}` }).right;
  const outcomes = await store.append(Array.from({ length: 30 }, (_, i) => ({ command: command(i), appendedAt: 1 })));
  out.appended = outcomes.filter((o) => o.type === 'appended').length;
  await store.close();
  const db = openStoreDb({ path, driver: 'node:sqlite' });
  const worker = createStoreWorker(() => db, { module: db.client.workerModule, path, busyTimeoutMs: 1000, synchronous: 'NORMAL', statements: db.statements });
  out.deleted = (await worker.cap({ maxRows: 5, limit: 100 }, () => ({ heads: [], journal: [] }))).deleted;
  await worker.checkpoint();
  out.checkpointedOffThread = worker.usable;
  await worker.close();
  db.client.close();
}

main().then(
  () => console.log(JSON.stringify(out)),
  (error) => {
    console.log(JSON.stringify({ ...out, error: String(error && error.message) }));
    process.exitCode = 1;
  },
);
