// Runs the shared StateStore contract against the SQLite store on node:sqlite, on a temp file.
import { describeStateStoreContract, nodeSqliteKind } from '@session-state/testkit';

describeStateStoreContract('sqlite (node:sqlite)', () => nodeSqliteKind.open());
