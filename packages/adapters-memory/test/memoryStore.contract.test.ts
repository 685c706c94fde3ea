// Runs the shared StateStore contract against the in-memory store (a reopen is a new view of the same state).
import { describeStateStoreContract, memoryKind } from '@session-state/testkit';

describeStateStoreContract('memory', () => memoryKind.open());
