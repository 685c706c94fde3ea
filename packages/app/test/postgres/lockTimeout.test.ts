// A gateway on PostgreSQL beside a foreign transaction that holds a session's head row (an
// operator's psql left in BEGIN after SELECT … FOR UPDATE): `record` on that session returns a
// "database is locked" failure once the store's lockTimeoutMs has passed, as a busy SQLite file
// does; records on other sessions, in the same group-commit batch or queued behind it in the
// operation lane, complete; and the session records again once the lock ends.
import pg from 'pg';

import { createSessionStateAwareness, type RecordResult, type SessionStateAwareness } from '../../src/index.js';
import { openPostgresStore } from '@session-state/adapters-postgres';
import { humanTurn, recordingLogger } from '../support/harness.js';

jest.setTimeout(30_000);

const URL_ = process.env['SESSION_STATE_PG_URL'] as string;
const A = 'agent:a:main';
const B = 'agent:b:main';

let schema: string;
let awareness: SessionStateAwareness;
let foreign: pg.Client;

beforeEach(async () => {
  schema = `ss_app_locks_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const store = await openPostgresStore({ connectionString: URL_, schema, maxConnections: 3, lockTimeoutMs: 300 });
  awareness = await createSessionStateAwareness({ store, logger: recordingLogger() });
  foreign = new pg.Client({ connectionString: URL_ });
  await foreign.connect();
});

afterEach(async () => {
  await foreign.query('ROLLBACK');
  await awareness.close();
  await foreign.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await foreign.end();
});

const failure = (result: RecordResult): string => (result.ok ? 'recorded' : result.error.message);

test('record on a session whose head row a foreign transaction holds fails as "database is locked" after the bound; other sessions record; the session records once the lock ends', async () => {
  expect((await awareness.record(humanTurn(A))).ok).toBe(true);
  expect((await awareness.record(humanTurn(B))).ok).toBe(true);
  const before = await awareness.status(A);
  await foreign.query('BEGIN');
  await foreign.query(`SELECT head FROM ${schema}.heads WHERE session_key = $1 FOR UPDATE`, [A]);

  // The same tick: one group-commit batch holding both sessions.
  const [lockedA, sameBatchB] = await Promise.all([awareness.record(humanTurn(A)), awareness.record(humanTurn(B))]);
  expect(failure(lockedA)).toMatch(/^session-state record failed: database is locked: .*lockTimeoutMs/);
  expect(sameBatchB.ok).toBe(true);

  // A later tick: B's batch waits in the lane behind A's, which fails at the bound and lets it go.
  const lockedAgain = awareness.record(humanTurn(A));
  await new Promise((resolve) => setImmediate(resolve));
  const laterB = awareness.record(humanTurn(B));
  expect(failure(await lockedAgain)).toMatch(/database is locked/);
  expect((await laterB).ok).toBe(true);
  expect(await awareness.status(A)).toEqual(before);

  await foreign.query('ROLLBACK');
  const after = await awareness.record(humanTurn(A));
  expect(after.ok).toBe(true);
  expect((await awareness.status(A)).stateVersion).toBeGreaterThan(before.stateVersion);
});
