// The SQLite StateStore; public API, whose declarations import only @session-state/domain types.
export { openSqliteStore, type SqliteStore } from './openSqliteStore.js';
export { DEFAULT_BUSY_TIMEOUT_MS, type SqliteDatabaseHandle, type SqliteStoreOptions } from './storeOptions.js';
export { WAL_FRAMES_BEFORE_WAIT } from './worker/walBound.js';
export type { CorruptRowInfo } from '@session-state/domain';
export { MIGRATIONS, type Migration } from './migrations/index.js';
export { isStateFile, probeStateFile, type StateFileProbe } from './file/isStateFile.js';
export { labelStateFile, stateFileLabels } from './file/fileLabels.js';
