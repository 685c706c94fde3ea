// Rows damaged by hand (or by another program) are skipped and reported by sequence, never
// thrown and never echoed, and paging goes on past them.
import type { SessionKey, StateStore } from '@session-state/domain';
import { dropSchema, pgUrl, uniqueSchema, withClient } from '@session-state/testkit';

import { openPostgresStore, type CorruptRowInfo } from '../src/index.js';
import { humanTurn, key, request } from './support/commands.js';

const T = key('agent:t:main');
const W = key('agent:w:main');

let schema: string;
let store: StateStore;
let reports: CorruptRowInfo[];

beforeEach(async () => {
  schema = uniqueSchema('corrupt');
  reports = [];
  store = await openPostgresStore({ connectionString: pgUrl(), schema, onCorruptRow: (info) => reports.push(info) });
});

afterEach(async () => {
  await store.close();
  await dropSchema(schema);
});

async function appendTurns(sessionKey: SessionKey, n: number): Promise<number[]> {
  const sequences: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const [o] = await store.append([request(humanTurn(sessionKey, { summary: `turn ${i}`, payload: { i } }))]);
    if (o?.type !== 'appended') throw new Error('append failed');
    sequences.push(o.event.sequence);
  }
  return sequences;
}

test('an event with an unknown kind or a non-object payload is skipped and reported, and the page is still full', async () => {
  const seqs = await appendTurns(T, 6);
  await withClient(async (c) => {
    await c.query(`UPDATE events SET kind = 'secret-kind' WHERE sequence = $1`, [seqs[1]]);
    await c.query(`UPDATE events SET payload = '[1, "secret"]'::json WHERE sequence = $1`, [seqs[3]]);
  }, schema);
  const page = await store.readChanges(T, 0 as never, 3);
  expect(page.events.map((e) => e.sequence)).toEqual([seqs[0], seqs[2], seqs[4]]);
  expect(page.hasMore).toBe(true);
  expect(reports.map((r) => [r.table, r.sequence, r.reason])).toEqual([
    ['events', seqs[1], 'unknown kind'],
    ['events', seqs[3], 'payload is not a JSON object'],
  ]);
  expect(JSON.stringify(reports)).not.toContain('secret');
  const lean = await store.readSessionChanges!(T, 0 as never, 3);
  expect(lean.events.map((e) => e.sequence)).toEqual([seqs[0], seqs[2], seqs[4]]);
});

test('a cursor with watermarks out of order is skipped and reported by every reader of cursors', async () => {
  await store.watch({ watcher: W, target: T, now: 1 });
  await appendTurns(T, 1);
  await withClient((c) => c.query(`UPDATE cursors SET notified = material + 5`), schema);
  expect(await store.listCursors()).toEqual([]);
  expect(await store.restartScan(2)).toEqual([]);
  expect(reports.map((r) => [r.operation, r.table, r.reason])).toEqual([
    ['listCursors', 'cursors', 'watermarks are out of order'],
    ['restartScan', 'cursors', 'watermarks are out of order'],
  ]);
});
