// The restart scan reads, plans and writes its pending cursors a page of `scanPending` at a time:
// one page raises only its own cursors, and many pages, the event loop running between them, give
// the same result as one pass (every pending pair recovered once, in pair order, each journalled).
import Database from 'better-sqlite3';
import type { SessionKey, StateStore } from '@session-state/domain';
import { restartScanAll, tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';

const PAGE = 500;
const PENDING = 10 * PAGE + 21;
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

test('one page raises and journals only the pending cursors it read, and names where the next page starts', async () => {
  const page = await store.scanPending({ limit: PAGE, raise: { now: 1_000 } });
  const read = Array.from({ length: PAGE }, (_, i) => watcherOf(2 * i));
  expect(page.notices.map((n) => n.watcher)).toEqual(read);
  expect(page.next).toEqual({ watcher: read[PAGE - 1], target: TARGET });
  const raised = (await store.listCursors()).filter((row) => row.material > row.acked && row.notified === 200).map((row) => row.watcher);
  expect(raised).toEqual(read);
  const journal = await store.readCursorJournal();
  expect(journal.map((entry) => [entry.watcher, entry.event.type])).toEqual(read.map((watcher) => [watcher, 'notice_recovered']));
});

test('a scan of many pages recovers every pending pair once, in pair order, raised and journalled, and lets the event loop run between pages', async () => {
  const ranBetween = new Promise<boolean>((resolve) => setImmediate(() => resolve(true)));
  let scanDone = false;
  const scan = restartScanAll(store, 1_000).then((notices) => {
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
  const again = await restartScanAll(store, 2_000);
  expect(again.map((n) => n.watcher)).toEqual(expected);
  expect(await store.readCursorJournal()).toHaveLength(journal.length);
});
