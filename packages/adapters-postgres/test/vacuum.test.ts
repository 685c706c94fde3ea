// The store's optional `vacuum` (what `session-state prune --vacuum` runs on PostgreSQL): VACUUM of
// the store's own tables, with their size before and after, read from the server.
import { dropSchema, pgUrl, uniqueSchema, withClient } from '@session-state/testkit';

import { openPostgresStore } from '../src/index.js';
import { humanTurn, key, request } from './support/commands.js';

jest.setTimeout(30_000);

const A = key('agent:a:main');
const T0 = Date.UTC(2026, 10, 30);

/** What the server says: the events heap (main fork) and all four tables with indexes, TOAST, FSM and VM. */
async function sizes(schema: string): Promise<{ eventsHeap: number; total: number }> {
  const tables = ['events', 'heads', 'cursors', 'cursor_journal'].map((name) => `${schema}.${name}`);
  const result = await withClient((client) =>
    client.query<{ heap: string; total: string }>(
      `SELECT pg_relation_size($1::regclass, 'main')::text AS heap,
              (SELECT sum(pg_total_relation_size(t::regclass)) FROM unnest($2::text[]) AS t)::text AS total`,
      [`${schema}.events`, tables],
    ),
  );
  const row = result.rows[0];
  return { eventsHeap: Number(row?.heap), total: Number(row?.total) };
}

test('vacuum reports the store tables\' size before and after as the server counts it, and gives the pruned heap back', async () => {
  const schema = uniqueSchema('vacuum');
  const store = await openPostgresStore({ connectionString: pgUrl(), schema });
  try {
    await store.append(Array.from({ length: 200 }, () => request(humanTurn(A), T0)));
    for (;;) if ((await store.prune({ now: T0, maxAgeMs: 1000, maxRows: 0, batchSize: 1000 })).done) break;
    if (store.vacuum === undefined) throw new Error('the PostgreSQL store offers vacuum');
    const before = await sizes(schema);
    expect(before.eventsHeap).toBeGreaterThan(0);

    const { bytesBefore, bytesAfter } = await store.vacuum();

    let after = await sizes(schema);
    expect([bytesBefore, bytesAfter]).toEqual([before.total, after.total]);
    // A transaction of another suite running beside this one (the lock-timeout tests hold a row
    // lock on purpose) keeps the pruned rows visible to it until it ends: VACUUM runs again then.
    for (let again = 0; after.eventsHeap !== 0 && again < 100; again += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const repeated = await store.vacuum();
      after = await sizes(schema);
      expect(repeated.bytesAfter).toBe(after.total);
    }
    // Every event was pruned: VACUUM truncates the now empty heap. (The total can still grow by
    // the free-space and visibility maps VACUUM creates, so the total is not compared.)
    expect(after.eventsHeap).toBe(0);
  } finally {
    await store.close();
    await dropSchema(schema);
  }
});
