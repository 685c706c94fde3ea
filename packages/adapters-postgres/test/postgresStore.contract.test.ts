// Runs the shared StateStore contract against the PostgreSQL store, each test in a schema of its
// own on the server at SESSION_STATE_PG_URL; reopen closes the pool and opens the same schema.
import { describeStateStoreContract } from '../../domain/contract/stateStore.contract';
import { openPostgresStore } from '../src';
import { dropSchema, pgUrl, uniqueSchema } from './support/pgTestDb';

describeStateStoreContract('postgres', async () => {
  const schema = uniqueSchema('contract');
  const open = () => openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 4 });
  let store = await open();
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await open();
      return store;
    },
    cleanup: async () => {
      await store.close();
      await dropSchema(schema);
    },
  };
});
