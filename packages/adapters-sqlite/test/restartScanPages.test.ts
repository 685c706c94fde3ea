// The restart scan reads, plans and writes its pending cursors a page at a time, letting the event
// loop run between pages: more than a page of pending cursors gives the same result as one pass
// (every pending pair recovered once, in pair order, each journalled), without one long block.
import Database from 'better-sqlite3';
import type { SessionKey, StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';
import { RESTART_SCAN_PAGE_ROWS } from '../src/operations/restartScan.js';

const PENDING = 10 * RESTART_SCAN_PAGE_ROWS + 21;
const watcherOf = (i: number) => `agent:w${String(i).padStart(5, '0')}:main` as SessionKey;
const TARGET = 'agent:t:main' as SessionKey;

let temp: TempDb;
let store: StateStore;

beforeEach(async () => {
  temp = tempDbPath();
  store = openSqliteStore({ path: temp.path });
  await store.close();
  // Seeded by plain SQL: pending cursors whose notice was raised at 150 while material reached
  // 200, plus idle ones the scan must pass over, interleaved in pair order.
  const seed = new Database(temp.path);
  const insert = seed.prepare('INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, ?, 100, ?, ?, 0)');
  seed.transaction(() => {
    for (let i = 0; i < PENDING; i += 1) {
      insert.run(watcherOf(2 * i), TARGET, 150, 200);
      insert.run(watcherOf(2 * i + 1), TARGET, 100, 100);
    }
  })();
  seed.close();
  store = openSqliteStore({ path: temp.path });
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

test('a scan of many pages recovers every pending pair once, in pair order, raised and journalled, and lets the event loop run between pages', async () => {
  const ranBetween = new Promise<boolean>((resolve) => setImmediate(() => resolve(true)));
  let scanDone = false;
  const scan = store.restartScan(1_000).then((notices) => {
    scanDone = true;
    return notices;
  });
  // An immediate queued before the scan runs before the scan resolves only if the scan yields.
  expect(await Promise.race([ranBetween.then(() => !scanDone), scan.then(() => false)])).toBe(true);
  const notices = await scan;

  const expected = Array.from({ length: PENDING }, (_, i) => watcherOf(2 * i));
  expect(notices.map((n) => n.watcher)).toEqual(expected);
  expect(notices.every((n) => n.target === TARGET && n.acked === 100 && n.notified === 200 && n.reason === 'recovered')).toBe(true);
  const rows = await store.listCursors();
  expect(rows.filter((row) => row.material > row.acked).every((row) => row.notified === 200)).toBe(true);
  const journal = await store.readCursorJournal();
  expect(journal.filter((entry) => entry.event.type === 'notice_recovered').map((entry) => entry.watcher)).toEqual(expected);

  // A second scan changes nothing more: the same notices, no new journal entry.
  const again = await store.restartScan(2_000);
  expect(again.map((n) => n.watcher)).toEqual(expected);
  expect(await store.readCursorJournal()).toHaveLength(journal.length);
});
