// Runs the shared StateStore contract against the SQLite store on a temp file, with a reopen
// that closes and reopens the same file.
import { describeStateStoreContract, sqliteKind } from '@session-state/testkit';

describeStateStoreContract('sqlite', () => sqliteKind.open());
