// The PostgreSQL store's prune batch hint: its calls await the server and never block the event
// loop, so it asks the facade for batches of a fixed row count instead of time-sized ones.
import { dropSchema, pgUrl, uniqueSchema } from '@session-state/testkit';

import { openPostgresStore } from '../src/index.js';
import { PRUNE_BATCH_ROWS } from '../src/operations/prune.js';

test('the store offers pruneBatchRows, a fixed row count of 10,000 per prune batch', async () => {
  const schema = uniqueSchema('prunebatch');
  const store = await openPostgresStore({ connectionString: pgUrl(), schema });
  try {
    expect(PRUNE_BATCH_ROWS).toBe(10_000);
    expect(store.pruneBatchRows).toBe(PRUNE_BATCH_ROWS);
  } finally {
    await store.close();
    await dropSchema(schema);
  }
});
