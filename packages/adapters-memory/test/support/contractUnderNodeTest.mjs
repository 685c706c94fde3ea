// The README's "Bring your own store" recipe for node:test, run on the built packages: the
// contract suite declared with node:test's functions, against the memory store (no jest loaded).
import { afterEach, beforeEach, describe, test } from 'node:test';

import { createMemoryStore } from '@session-state/adapters-memory';
import { describeStateStoreContract } from '@session-state/testkit';

describeStateStoreContract(
  'memory under node:test',
  async () => {
    const store = createMemoryStore();
    return { store, reopen: async () => store, cleanup: () => store.close() };
  },
  { describe, test, beforeEach, afterEach },
);
