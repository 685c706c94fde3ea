// Runs the shared StateStore contract against the PostgreSQL store, each test in a schema of its
// own on the server at SESSION_STATE_PG_URL; reopen closes the pool and opens the same schema.
import { describeStateStoreContract, postgresKind } from '@session-state/testkit';

describeStateStoreContract('postgres', () => postgresKind.open());
