// The SQLite adapter of the StateStore port: open a file (or `:memory:`) and get a store.
export { openSqliteStore, DEFAULT_BUSY_TIMEOUT_MS, type SqliteStoreOptions } from './openSqliteStore';
export type { CorruptRowInfo } from './storeDb';
export { MIGRATIONS, type Migration } from './migrations';
export { isStateFile, probeStateFile, type StateFileProbe } from './isStateFile';
export { labelStateFile, stateFileLabels } from './fileLabels';
