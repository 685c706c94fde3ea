// readHeads drops repeated keys, whatever the head rows' rowids (heads deleted and made again many
// times, or set by hand).
import Database from 'better-sqlite3';
import type { SessionKey, StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';
import { appendRequest } from './support/appendRequest.js';

const A = 'agent:a:main' as SessionKey;
const B = 'agent:b:main' as SessionKey;
const NONE = 'agent:none:main' as SessionKey;

let temp: TempDb;
let store: StateStore;
beforeEach(async () => {
  temp = tempDbPath();
  store = openSqliteStore({ path: temp.path });
  await store.append([appendRequest({ sessionKey: A, summary: 'a change' })]);
  await store.append([appendRequest({ sessionKey: B, summary: 'a change' })]);
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

test.each([
  ['small rowids', 0],
  ['a rowid of 2^40 (no byte table that size)', 2 ** 40],
])('with %s, repeated and unknown keys give each known head once, in the order first given', async (_name, offset) => {
  if (offset > 0) {
    const other = new Database(temp.path);
    other.prepare('UPDATE heads SET rowid = rowid + ? WHERE session_key = ?').run(offset, B);
    other.close();
  }
  const rows = await store.readHeads([B, NONE, A, B, A, NONE]);
  expect(rows.map((row) => row.sessionKey)).toEqual([B, A]);
  expect(rows).toEqual([...(await store.readHeads([B])), ...(await store.readHeads([A]))]);
});
