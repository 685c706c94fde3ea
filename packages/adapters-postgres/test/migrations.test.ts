// Opening: the committed migration applied exactly once even when gateways open a fresh schema
// at once, byte-wise key order whatever the database collation, a newer schema refused, and
// options checked with errors that name the option (and never echo a connection string).
import { dropSchema, pgUrl, uniqueSchema, withClient } from '@session-state/testkit';

import { openPostgresStore } from '../src/index.js';
import { GENERATED_MIGRATIONS as MIGRATIONS } from '../src/migrations/generated.js';
import { migrate } from '../src/migrations/migrate.js';
import { humanTurn, key, request } from './support/commands.js';

jest.setTimeout(30_000);

test('five gateways opening a fresh schema at once apply the migration once and all work', async () => {
  const schema = uniqueSchema('mig');
  try {
    const stores = await Promise.all([1, 2, 3, 4, 5].map(() => openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 1 })));
    const rows = await withClient((c) => c.query('SELECT version, name FROM schema_migrations ORDER BY version'), schema);
    expect(rows.rows).toEqual(MIGRATIONS.map((m) => ({ version: String(m.version), name: m.name })));
    const outcomes = await Promise.all(stores.map((s) => s.append([request(humanTurn(key('agent:a:main')))])));
    expect(outcomes.every(([o]) => o?.type === 'appended')).toBe(true);
    await Promise.all(stores.map((s) => s.close()));
  } finally {
    await dropSchema(schema);
  }
});

test('reopening an up-to-date schema applies nothing and keeps the data', async () => {
  const schema = uniqueSchema('mig');
  try {
    const first = await openPostgresStore({ connectionString: pgUrl(), schema });
    await first.append([request(humanTurn(key('agent:a:main')))]);
    await first.close();
    const again = await openPostgresStore({ connectionString: pgUrl(), schema });
    const [head] = await again.readHeads([key('agent:a:main')]);
    expect(head?.head).toBeGreaterThan(0);
    await again.close();
    const rows = await withClient((c) => c.query('SELECT count(*)::int AS n FROM schema_migrations'), schema);
    expect(rows.rows[0]).toEqual({ n: MIGRATIONS.length });
  } finally {
    await dropSchema(schema);
  }
});

test('session keys are ordered byte-wise (COLLATE "C"), as in every other store', async () => {
  const schema = uniqueSchema('mig');
  try {
    const store = await openPostgresStore({ connectionString: pgUrl(), schema });
    const keys = ['agent:b:main', 'agent:B:main', 'agent:a:main', 'agent:a-b:main', 'agent:a_b:main'].map(key);
    for (const k of keys) await store.append([request(humanTurn(k))]);
    const heads = await store.readHeads();
    expect(heads.map((h) => h.sessionKey)).toEqual([...keys].sort());
    await store.close();
  } finally {
    await dropSchema(schema);
  }
});

test('a schema at version 1 gains the cursor journal (empty) and keeps its data', async () => {
  const schema = uniqueSchema('mig');
  try {
    await withClient(async (c) => {
      await migrate(c, schema, MIGRATIONS.slice(0, 1));
      await c.query(`INSERT INTO ${schema}.cursors (watcher, target, acked, notified, material, touched_at) VALUES ('agent:a:main', 'agent:b:main', 0, 0, 0, 1)`);
    });
    const store = await openPostgresStore({ connectionString: pgUrl(), schema });
    expect((await store.listCursors()).map((row) => row.target)).toEqual(['agent:b:main']);
    expect(await store.readCursorJournal()).toEqual([]);
    await store.close();
    const rows = await withClient((c) => c.query('SELECT version FROM schema_migrations ORDER BY version'), schema);
    expect(rows.rows.map((row) => Number(row.version))).toEqual(MIGRATIONS.map((m) => m.version));
  } finally {
    await dropSchema(schema);
  }
});

test('a schema migrated by a newer version of the library is refused with a clear error', async () => {
  const schema = uniqueSchema('mig');
  try {
    const store = await openPostgresStore({ connectionString: pgUrl(), schema });
    await store.close();
    await withClient((c) => c.query(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)`), schema);
    await expect(openPostgresStore({ connectionString: pgUrl(), schema })).rejects.toThrow(/schema version 999 is newer than this library knows/);
  } finally {
    await dropSchema(schema);
  }
});

describe('options', () => {
  test.each([
    [{ connectionString: 'mysql://u:secret@h/db' }, /connectionString must be a postgres:\/\/ or postgresql:\/\/ URL, got a string not starting/],
    [{ connectionString: 42 }, /connectionString must be .* got number/],
    [{ connectionString: 'postgres://h/db', schema: 'Bad-Name' }, /schema must be .*lower-case letters.* got "Bad-Name"/],
    [{ connectionString: 'postgres://h/db', schema: 'pg_catalog' }, /schema must be .* got "pg_catalog"/],
    [{ connectionString: 'postgres://h/db', schema: 'x'.repeat(41) }, /schema must be .*at most 40/],
    [{ connectionString: 'postgres://h/db', maxConnections: 0 }, /maxConnections must be a positive integer, got 0/],
    [{ connectionString: 'postgres://h/db', connectTimeoutMs: -1 }, /connectTimeoutMs must be a positive integer \(milliseconds\), got -1/],
    [{ connectionString: 'postgres://h/db', onCorruptRow: 'log' }, /onCorruptRow must be a function, got string/],
    [{ connectionString: 'postgres://h/db', lockTimeoutMs: 0 }, /lockTimeoutMs must be a positive integer \(milliseconds\), got 0/],
    [{ connectionString: 'postgres://h/db', lockTimeoutMs: '5 s' }, /lockTimeoutMs must be a positive integer \(milliseconds\), got string/],
    [{ connectionString: 'postgres://h/db', statementTimeoutMs: 1.5 }, /statementTimeoutMs must be a positive integer \(milliseconds\), got 1.5/],
    [{ connectionString: 'postgres://h/db', logger: { warn: () => undefined } }, /logger must be an object with warn and error functions, got object/],
  ])('%j is refused naming the option', async (options, message) => {
    await expect(openPostgresStore(options as never)).rejects.toThrow(message);
  });

  test('a refused connection string is never echoed (it may hold a password)', async () => {
    await expect(openPostgresStore({ connectionString: 'mysql://u:secret@h/db' })).rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret') }));
  });

  test('an unreachable server rejects the open and leaves no pool behind', async () => {
    await expect(openPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/test', schema: uniqueSchema('x') })).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});

test('hasPostgresState is false for a missing or empty schema and true once a store was opened, and creates nothing', async () => {
  const { hasPostgresState } = await import('../src/index.js');
  const schema = uniqueSchema('has');
  try {
    expect(await hasPostgresState({ connectionString: pgUrl(), schema })).toBe(false);
    const exists = await withClient((c) => c.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]));
    expect(exists.rowCount).toBe(0);
    await withClient((c) => c.query(`CREATE SCHEMA ${schema}`));
    expect(await hasPostgresState({ connectionString: pgUrl(), schema })).toBe(false);
    const store = await openPostgresStore({ connectionString: pgUrl(), schema });
    await store.close();
    expect(await hasPostgresState({ connectionString: pgUrl(), schema })).toBe(true);
  } finally {
    await dropSchema(schema);
  }
});
