// The library side of every workload: the public facade over the SQLite store (file-backed) or
// the memory store, created exactly as a gateway would create it (one gateway, or one of several
// sharing a store when the workload gives `ownsSession`).
import { createManualClock, createMemoryStore } from '@session-state/adapters-memory';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createSessionStateAwareness } from '@session-state/app';
import type { StateStore } from '@session-state/domain';

/** The facade as `createSessionStateAwareness` returns it. */
export type Awareness = Awaited<ReturnType<typeof createSessionStateAwareness>>;

/** What a workload may set; the defaults are the gateway's (system clock, 30 days, 50,000 rows). */
export interface LibraryOptions {
  /** Fixed clock time in ms; the system clock when absent. */
  readonly fixedNow?: number;
  readonly maxRows?: number;
  readonly maxAgeMs?: number;
  /** Called when a notice is newly queued for a watcher; a no-op when absent. */
  readonly wake?: (watcher: string) => void;
  /** Which watcher sessions this gateway owns (several gateways on one store); all when absent. */
  readonly ownsSession?: (sessionKey: string) => boolean;
  /** The SQLite store's driver; better-sqlite3 when absent. */
  readonly driver?: 'better-sqlite3' | 'node:sqlite';
}

// A logger that keeps quiet: a failed record is counted by the workload, not printed per op.
const quietLogger = { warn: (): void => undefined, error: (): void => undefined };

function commonOptions(options: LibraryOptions) {
  const retention = {
    ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}),
    ...(options.maxAgeMs !== undefined ? { maxAgeMs: options.maxAgeMs } : {}),
  };
  return {
    logger: quietLogger,
    wake: options.wake ?? ((): void => undefined),
    retention,
    ...(options.fixedNow !== undefined ? { clock: createManualClock(options.fixedNow) } : {}),
    ...(options.ownsSession !== undefined ? { ownsSession: options.ownsSession } : {}),
  };
}

/** Opens the SQLite store on `path` (migrating it) without starting the facade. */
export function openLibraryStore(path: string, driver?: LibraryOptions['driver']): ReturnType<typeof openSqliteStore> {
  return openSqliteStore({ path, ...(driver !== undefined ? { driver } : {}) });
}

/** The facade over an already opened store (SQLite or PostgreSQL); resolves after the restart scan. */
export function startOnStore(store: StateStore, options: LibraryOptions = {}): Promise<Awareness> {
  return createSessionStateAwareness({ store, ...commonOptions(options) });
}

/** The facade over a fresh SQLite file at `path`. */
export function startSqlite(path: string, options: LibraryOptions = {}): Promise<Awareness> {
  return startOnStore(openLibraryStore(path, options.driver), options);
}

/** The facade over a fresh memory store. */
export function startMemory(options: LibraryOptions = {}): Promise<Awareness> {
  return createSessionStateAwareness({ store: createMemoryStore(), ...commonOptions(options) });
}
