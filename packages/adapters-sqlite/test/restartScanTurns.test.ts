// A restart-scan page that waited for a WAL checkpoint runs in an event-loop turn of its own, not
// the turn in which the checkpoint finished (ready() resolving in the poll phase), where it would
// share one block with the page after it. (The app's pacer gives each page after the first a turn.)
import { stat } from 'node:fs';

import Database from 'better-sqlite3';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import type { WalSchedule } from '../src/worker/walBound.js';
import { openStoreDb } from '../src/db/openStoreDb.js';
import { scanPending } from '../src/operations/scanPending.js';
import type { StoreDb } from '../src/db/storeDb.js';
import type { CursorPair, Notice } from '@session-state/domain';

const PENDING = 5000;
const PAGE = 500;

/** Every restart-scan page in turn, each waiting on `wal` as the store's scan does. */
async function restartScan(wal: WalSchedule): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  let after: CursorPair | undefined;
  do {
    const page = await scanPending(db, { limit: PAGE, raise: { now: 1_000 }, ...(after !== undefined ? { after } : {}) }, wal);
    notices.push(...page.notices);
    after = page.next;
  } while (after !== undefined);
  return notices;
}

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

test('no page runs in the turn in which the checkpoint it waited for finished', async () => {
  // A checkpoint's end arrives as an I/O callback (poll phase), as the worker's message does.
  let checkpointsTurn = false;
  const ready = (): Promise<boolean> =>
    new Promise((resolve) =>
      stat(__filename, () => {
        checkpointsTurn = true;
        setImmediate(() => (checkpointsTurn = false));
        resolve(true);
      }),
    );
  const pages: boolean[] = [];
  const notices = await restartScan({ ready, written: () => pages.push(checkpointsTurn) });
  expect(notices).toHaveLength(PENDING);
  expect(pages.length).toBeGreaterThan(1);
  expect(pages.every((inCheckpointsTurn) => !inCheckpointsTurn)).toBe(true);
});
