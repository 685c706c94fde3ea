// Every restart-scan page starts an event-loop turn of its own: not the caller's turn, and not
// the turn in which a WAL checkpoint finished (ready() resolving in the poll phase), where it
// would share one block with the page after it.
import { stat } from 'node:fs';

import Database from 'better-sqlite3';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import type { WalSchedule } from '../src/worker/walBound.js';
import { openStoreDb } from '../src/db/openStoreDb.js';
import { restartScan } from '../src/operations/restartScan.js';
import type { StoreDb } from '../src/db/storeDb.js';

const PENDING = 5000;

let temp: TempDb;
let db: StoreDb;

beforeEach(() => {
  temp = tempDbPath();
  openStoreDb({ path: temp.path }).client.close();
  const seed = new Database(temp.path);
  const insert = seed.prepare("INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, 'agent:t:main', 100, 150, 200, 0)");
  seed.transaction(() => {
    for (let i = 0; i < PENDING; i += 1) insert.run(`agent:w${String(i).padStart(5, '0')}:main`);
  })();
  seed.close();
  db = openStoreDb({ path: temp.path });
});
afterEach(() => {
  db.client.close();
  temp.remove();
});

test('the first page does not run in the turn the scan was called in', async () => {
  let callersTurn = true;
  setImmediate(() => (callersTurn = false));
  const pages: boolean[] = [];
  const wal: WalSchedule = { ready: async () => undefined, written: () => pages.push(callersTurn) };
  const notices = await restartScan(db, 1_000, undefined, wal);
  expect(notices).toHaveLength(PENDING);
  expect(pages[0]).toBe(false);
});

test('no page runs in the turn in which the checkpoint it waited for finished', async () => {
  // A checkpoint's end arrives as an I/O callback (poll phase), as the worker's message does.
  let checkpointsTurn = false;
  const ready = (): Promise<void> =>
    new Promise((resolve) =>
      stat(__filename, () => {
        checkpointsTurn = true;
        setImmediate(() => (checkpointsTurn = false));
        resolve();
      }),
    );
  const pages: boolean[] = [];
  const notices = await restartScan(db, 1_000, undefined, { ready, written: () => pages.push(checkpointsTurn) });
  expect(notices).toHaveLength(PENDING);
  expect(pages.length).toBeGreaterThan(1);
  expect(pages.every((inCheckpointsTurn) => !inCheckpointsTurn)).toBe(true);
});
