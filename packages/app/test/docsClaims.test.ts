// The numbers the docs quote are the code's: each claim is found in the READMEs and docs by its
// wording and compared with the exported constant, so a changed bound cannot leave a doc behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MAX_PAGE_LIMIT, OCCURRED_AT_WINDOW_MS, SESSION_KEY_MAX_LENGTH, SUMMARY_MAX_LENGTH } from '@session-state/domain';

import { createMemoryStore } from '@session-state/adapters-memory';

import { APPEND_BATCH_BOUNDS, createSessionStateAwareness, DEFAULT_RETENTION } from '../src/index.js';

const ROOT = join(__dirname, '..', '..', '..');
const DOCS = ['README.md', 'docs/contract.md', 'docs/integration-guide.md', 'docs/metrics.md', 'docs/agent-tools.md', 'packages/app/README.md', 'packages/domain/README.md'];
const text = DOCS.map((doc) => readFileSync(join(ROOT, doc), 'utf8').replace(/\s+/gu, ' ')).join('\n');

const DAY_MS = 24 * 60 * 60 * 1000;
const numberOf = (quoted: string): number => Number(quoted.replace(/[,_]/gu, ''));

/** Every number the pattern captures (its first or second group) across the docs. */
function quoted(pattern: RegExp): number[] {
  return [...text.matchAll(pattern)].map((match) => numberOf(match[1] ?? match[2] ?? ''));
}

test.each([
  ['a batch holds at most N appends', /(\d+) (?:`record`\/`childSpawned` )?appends/gu, APPEND_BATCH_BOUNDS.maxRequests],
  ['a batch holds at most N KiB of summaries and payloads', /appends(?: and|,) (\d+) KiB/gu, APPEND_BATCH_BOUNDS.maxWeight / 1024],
  ['100,000 unawaited records are about N transactions', /100,000 unawaited records are (?:about|some) ([\d,]+) short transactions/gu, Math.round(100_000 / APPEND_BATCH_BOUNDS.maxRequests / 10) * 10],
  ['retention keeps N days by default', /(\d+) days(?:,| and) [\d,]+ (?:rows|events)|maxAgeMs: (\d+) days/gu, DEFAULT_RETENTION.maxAgeMs / DAY_MS],
  ['retention keeps N rows by default', /\d+ days(?:,| and) ([\d,]+) (?:rows|events)|maxRows: ([\d_]+)/gu, DEFAULT_RETENTION.maxRows],
  ['a page holds 1-N events', /`limit\?` \(1-(\d+)\)|1-(\d+), default \d+/gu, MAX_PAGE_LIMIT],
  ['a summary is capped at N characters', /(\d+) characters \(code points\)|capped at (\d+) characters/gu, SUMMARY_MAX_LENGTH],
  ['a session key holds at most N characters', /over (\d+) characters|at most (\d+) characters, no control/gu, SESSION_KEY_MAX_LENGTH],
  ['occurredAt is kept within the N hours up to the clock\'s now', /(\d+) hours up to the clock/gu, OCCURRED_AT_WINDOW_MS / 3_600_000],
])('the docs say %s, and N is the constant the code uses', (_claim, pattern, constant) => {
  const numbers = quoted(pattern);
  expect(numbers.length).toBeGreaterThan(0);
  expect(numbers).toEqual(numbers.map(() => constant));
});

test('the batch bound is quoted where a reader looks for it: the README, the contract, the app README and the metrics list', () => {
  expect(quoted(/(\d+) (?:`record`\/`childSpawned` )?appends/gu).length).toBeGreaterThanOrEqual(5);
});

test('every list of the metrics() counters in the docs names exactly the counters metrics() returns', async () => {
  const awareness = await createSessionStateAwareness({ store: createMemoryStore() });
  const counters = Object.keys(awareness.metrics()).sort();
  await awareness.close();
  // A list runs from `eventsAppended` to the end of its table cell, clause or parenthesis; remarks in parentheses are not names.
  const lists = [...text.matchAll(/`eventsAppended`[^|;]*?(?=\||;|(?<=`)\))/gu)].map((match) =>
    [...match[0].replace(/\([^()]*\)/gu, '').matchAll(/`(\w+)`/gu)].map((name) => name[1]),
  ).filter((names) => names.length > 1); // docs/metrics.md names one counter per table row
  expect(lists.length).toBeGreaterThanOrEqual(3);
  for (const list of lists) expect(list.slice().sort()).toEqual(counters);
});
