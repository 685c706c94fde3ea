// Runs the shared StateStore contract against the PostgreSQL store, each test in a schema of its
// own on the server at SESSION_STATE_PG_URL (emptied and reused by the next test, dropped at the
// end); reopen closes the pool and opens the same schema.
import { describeStateStoreContract, dropReleasedSchemas, postgresKind } from '@session-state/testkit';

afterAll(dropReleasedSchemas);

describeStateStoreContract('postgres', () => postgresKind.open());
