// A prune caller that repeats a call from the same journal position (never passing a batch's
// journalAfter on) is stopped after PRUNE_CALLS_WITHOUT_PROGRESS calls without progress, with
// one warning; a run that passes journalAfter on, as the facade does, ends by itself.
import type { LogFields, Logger, SessionKey } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/openSqliteStore.js';
import { OWN_CONNECTION_BATCH_ROWS } from '../src/operations/prune.js';
import { PRUNE_CALLS_WITHOUT_PROGRESS } from '../src/operations/pruneBatch.js';
import { pruneRun } from './support/pruneRun.js';

const T0 = Date.UTC(2026, 10, 29);
const DAY = 24 * 60 * 60 * 1000;
const TARGET = 'agent:t:main' as SessionKey;
const request = { now: T0, maxAgeMs: 30 * DAY, maxRows: 0, batchSize: 10_000 };

let temp: TempDb;
afterEach(() => temp.remove());

function keepingLogger(): Logger & { readonly lines: { readonly message: string; readonly fields?: LogFields }[] } {
  const lines: { message: string; fields?: LogFields }[] = [];
  return { lines, warn: (fields, message) => lines.push({ message, fields }), error: (fields, message) => lines.push({ message, fields }) };
}

/** A store whose journal holds more than one part's window of entries that must stay: the watch_started of live pairs. */
async function storeWithKeptJournal(logger: Logger) {
  temp = tempDbPath();
  const store = openSqliteStore({ path: temp.path, logger });
  for (let i = 0; i < OWN_CONNECTION_BATCH_ROWS + 100; i += 1) await store.watch({ watcher: `agent:w${i}:main` as SessionKey, target: TARGET, now: T0 });
  return store;
}

test('calls repeated from the same journal position without progress are reported done after PRUNE_CALLS_WITHOUT_PROGRESS calls, with one warning, and delete nothing that must stay', async () => {
  const logger = keepingLogger();
  const store = await storeWithKeptJournal(logger);
  let calls = 0;
  let done = false;
  // Bounded, so the test fails (rather than spins) if the store never stops such a caller.
  while (!done && calls < 50) {
    calls += 1;
    done = (await store.prune(request)).done;
  }
  expect({ done, calls }).toEqual({ done: true, calls: PRUNE_CALLS_WITHOUT_PROGRESS });
  expect(logger.lines).toEqual([{ message: expect.stringContaining('same journal position'), fields: { operation: 'prune', calls: PRUNE_CALLS_WITHOUT_PROGRESS, journalAfter: 0 } }]);
  expect(await store.readCursorJournal()).toHaveLength(OWN_CONNECTION_BATCH_ROWS + 100);
  await store.close();
});

test('a run that passes each batch journalAfter on ends after one pass over the journal, and nothing is logged', async () => {
  const logger = keepingLogger();
  const store = await storeWithKeptJournal(logger);
  await expect(pruneRun(store, request, 10)).resolves.toBe(2);
  expect(logger.lines).toEqual([]);
  await store.close();
});
