// The SQLite adapter of the StateStore port: open a file (or `:memory:`) and get a store.
// Everything exported here is public API: its declarations import only @session-state/domain types,
// never drizzle-orm, better-sqlite3 or pg types, so a gateway compiling with skipLibCheck: false needs none of
// their type declarations (tools/installTest checks it).
export { openSqliteStore } from './openSqliteStore.js';
export { DEFAULT_BUSY_TIMEOUT_MS, type SqliteDatabaseHandle, type SqliteStoreOptions } from './storeOptions.js';
export { LARGE_OPERATIONS_PER_BOUND, WAL_FRAMES_BEFORE_WAIT, WAL_FRAMES_BEFORE_WAIT_LARGE_OPERATIONS } from './worker/walBound.js';
export type { CorruptRowInfo } from '@session-state/domain';
export { MIGRATIONS, type Migration } from './migrations/index.js';
export { isStateFile, probeStateFile, type StateFileProbe } from './file/isStateFile.js';
export { labelStateFile, stateFileLabels } from './file/fileLabels.js';
