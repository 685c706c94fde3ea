// Runs the shared StateStore contract against the SQLite store on a temp file, with a reopen
// that closes and reopens the same file.
import { describeStateStoreContract } from '../../domain/contract/stateStore.contract';
import { openSqliteStore } from '../src';
import { tempDbPath } from './support/tempDb';

describeStateStoreContract('sqlite', async () => {
  const temp = tempDbPath();
  let store = openSqliteStore({ path: temp.path });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = openSqliteStore({ path: temp.path });
      return store;
    },
    cleanup: async () => {
      await store.close();
      temp.remove();
    },
  };
});
