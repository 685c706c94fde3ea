// Runs the shared StateStore contract against the in-memory store.
import { describeStateStoreContract } from '../../domain/contract/stateStore.contract';
import { createMemoryStore } from '../src';

describeStateStoreContract('memory', async () => ({ store: createMemoryStore() }));
