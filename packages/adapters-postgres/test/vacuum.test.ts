// The store's optional `vacuum` (what `session-state prune --vacuum` runs on PostgreSQL): VACUUM of
// the store's own tables, with their size before and after, read from the server.
import { dropSchema, pgUrl, uniqueSchema } from '@session-state/testkit';

import { openPostgresStore } from '../src';
import { humanTurn, key, request } from './support/commands';

jest.setTimeout(30_000);

const A = key('agent:a:main');
const T0 = Date.UTC(2026, 10, 30);

test('vacuum reports the size of the store tables before and after, and never grows them', async () => {
  const schema = uniqueSchema('vacuum');
  const store = await openPostgresStore({ connectionString: pgUrl(), schema });
  try {
    await store.append(Array.from({ length: 200 }, () => request(humanTurn(A), T0)));
    for (;;) if ((await store.prune({ now: T0, maxAgeMs: 1000, maxRows: 0, batchSize: 1000 })).done) break;
    if (store.vacuum === undefined) throw new Error('the PostgreSQL store offers vacuum');
    const { bytesBefore, bytesAfter } = await store.vacuum();
    // Four tables with their indexes: at least one 8 kB page each, whatever VACUUM gave back.
    expect(bytesBefore).toBeGreaterThanOrEqual(4 * 8192);
    expect(bytesAfter).toBeGreaterThan(0);
    expect(bytesAfter).toBeLessThanOrEqual(bytesBefore);
  } finally {
    await store.close();
    await dropSchema(schema);
  }
});
