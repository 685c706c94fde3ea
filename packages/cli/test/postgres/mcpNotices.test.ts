// The cross-process notice suite (support/noticeDelivery.ts) on a PostgreSQL schema (SESSION_STATE_PG_URL; collected
// only when it is set): the server hears another process's record through PostgreSQL's signals.
import pg from 'pg';

import { openPostgresStore } from '@session-state/adapters-postgres';
import { createSessionStateAwareness } from '@session-state/app';

import { describeCrossProcessNotices } from '../support/noticeDelivery.js';
import { requireBuiltCli } from '../support/runCli.js';

jest.setTimeout(60_000);

const BASE_URL = process.env['SESSION_STATE_PG_URL'] ?? '';
const SCHEMA = `ss_cli_notices_${process.pid}`;
const silent = { warn: () => undefined, error: () => undefined };

beforeAll(() => {
  if (BASE_URL === '') throw new Error('SESSION_STATE_PG_URL is not set; jest.config.cjs should not have collected this file');
  requireBuiltCli();
});

afterAll(async () => {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await client.end();
});

describeCrossProcessNotices('PostgreSQL', () => ({
  args: ['--db', BASE_URL, '--schema', SCHEMA],
  openGateway: async () => createSessionStateAwareness({ store: await openPostgresStore({ connectionString: BASE_URL, schema: SCHEMA }), logger: silent, startup: { restartScan: false, prune: 'off' } }),
}));
