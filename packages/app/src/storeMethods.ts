// The StateStore methods every store must have (the optional `readSessionChanges` and `listen`
// aside): the facade checks `options.store` against them (and `close`), and test stores that
// wrap every operation list them from here.
import type { StateStore } from '@session-state/domain';

/** Every required method but `close`. */
export const STORE_OPERATIONS = [
  'append',
  'watch',
  'readChanges',
  'readHeads',
  'listCursors',
  'drain',
  'readCursorJournal',
  'restartScan',
  'pendingNotices',
  'resetWatcher',
  'deleteSession',
  'prune',
] as const satisfies readonly (keyof StateStore)[];

/** What a value must have to be taken as a StateStore. */
export const REQUIRED_STORE_METHODS = [...STORE_OPERATIONS, 'close'] as const;
