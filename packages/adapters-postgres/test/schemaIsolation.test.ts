// Schema isolation: the store keeps its tables in a schema of its own (system and shared schemas
// are refused), and every statement names that schema, so a connection's search_path (e.g.
// `?options=-c search_path=X` in the connection string) never moves the data anywhere else.
import { dropSchema, restartScanAll, pgUrl, uniqueSchema, withClient } from '@session-state/testkit';

import { isSchemaName, openPostgresStore } from '../src/index.js';
import { humanTurn, key, request } from './support/commands.js';

jest.setTimeout(30_000);

const A = key('agent:a:main');
const B = key('agent:b:main');
const T0 = Date.UTC(2026, 10, 30);

/** The tables (and sequences) in `schema`, by name. */
async function relationsIn(schema: string): Promise<string[]> {
  const found = await withClient((c) =>
    c.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'S') ORDER BY 1`,
      [schema],
    ),
  );
  return found.rows.map((row) => row.name);
}

/** The connection string with `?options=-c search_path=<schema>` (percent-encoded) added. */
function withSearchPath(schema: string): string {
  const url = new URL(pgUrl());
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

describe('system and shared schemas are refused', () => {
  test.each(['public', 'information_schema', 'pg_catalog', 'pg_toast', 'pg_temp_1', 'pg_anything'])('%s is refused with an error saying the store needs a schema of its own', async (schema) => {
    expect(isSchemaName(schema)).toBe(false);
    await expect(openPostgresStore({ connectionString: pgUrl(), schema })).rejects.toThrow(
      new RegExp(`schema must be a schema of the store's own \\(not public, information_schema or pg_…\\).*got "${schema}"`),
    );
  });

  test('nothing was created in information_schema or public by a refused open', async () => {
    await expect(openPostgresStore({ connectionString: pgUrl(), schema: 'information_schema' })).rejects.toThrow();
    expect(await relationsIn('information_schema')).not.toEqual(expect.arrayContaining(['events', 'schema_migrations']));
  });
});

describe('a search_path in the connection string moves nothing', () => {
  test('every operation writes into the configured schema and nothing lands in the search_path schema', async () => {
    const schema = uniqueSchema('iso');
    const other = uniqueSchema('other');
    try {
      // The redirect target exists, so a statement resolved through search_path would land there.
      await withClient((c) => c.query(`CREATE SCHEMA ${other}`));
      const store = await openPostgresStore({ connectionString: withSearchPath(other), schema, maxConnections: 2 });
      await store.watch({ watcher: A, target: B, now: T0 });
      const [outcome] = await store.append([request(humanTurn(B, { kind: 'goal_changed', actorType: 'agent', actorSessionKey: 'agent:c:main', dedupeKey: 'd-1' }), T0)]);
      expect(outcome?.type).toBe('appended');
      const sequence = outcome?.type === 'appended' ? outcome.event.sequence : 0;
      expect(await store.drain({ watcher: A, acks: [{ target: B, notified: sequence as never }], now: T0 + 1 })).toMatchObject([{ result: 'acked' }]);
      await restartScanAll(store, T0 + 2);
      await store.prune({ now: T0 + 3, maxAgeMs: 86_400_000, maxRows: 1000, batchSize: 10 });
      expect((await store.readChanges(B, 0 as never, 10)).events.map((e) => e.sequence)).toEqual([sequence]);
      await store.resetWatcher(A, T0 + 4);
      await store.deleteSession(A, T0 + 5);
      // The journal too: watch_started, notice_raised, notice_acknowledged, watch_ended.
      expect((await store.readCursorJournal()).map((entry) => entry.event.type)).toEqual(['watch_started', 'notice_raised', 'notice_acknowledged', 'watch_ended']);
      await store.close();

      expect(await relationsIn(other)).toEqual([]);
      expect(await relationsIn(schema)).toEqual(['cursor_journal', 'cursor_journal_position_seq', 'cursors', 'event_sequence', 'events', 'heads', 'schema_migrations']);
      const stored = await withClient((c) => c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.events WHERE dedupe_key = 'd-1'`));
      expect(stored.rows[0]?.n).toBe(1);

      // Reopened through the plain connection string, the store finds the same data.
      const again = await openPostgresStore({ connectionString: pgUrl(), schema });
      expect((await again.readChanges(B, 0 as never, 10)).events.map((e) => e.sequence)).toEqual([sequence]);
      await again.close();
    } finally {
      await dropSchema(schema);
      await dropSchema(other);
    }
  });
});
