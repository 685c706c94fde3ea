// The library side of every workload: the public facade over the SQLite, memory or PostgreSQL
// store, created as a gateway creates it.
import { createManualClock, createMemoryStore } from '@session-state/adapters-memory';
import { openPostgresStore } from '@session-state/adapters-postgres';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createSessionStateAwareness } from '@session-state/app';
import type { StateStore } from '@session-state/domain';

export type Awareness = Awaited<ReturnType<typeof createSessionStateAwareness>>;

/** What a workload may set; the defaults are the gateway's. */
export interface LibraryOptions {
  /** A fixed clock time in ms; the system clock when absent. */
  readonly fixedNow?: number;
  readonly maxRows?: number;
  readonly maxAgeMs?: number;
  readonly wake?: (watcher: string) => void;
  /** Which watchers this gateway owns (several gateways on one store); all when absent. */
  readonly ownsSession?: (sessionKey: string) => boolean;
  readonly driver?: 'better-sqlite3' | 'node:sqlite';
}

/** Where a PostgreSQL store lives: each side of a workload has its own schema. */
export type PgPlace = { readonly url: string; readonly schema: string; readonly maxConnections: number };

const quietLogger = { warn: (): void => undefined, error: (): void => undefined };

export function openLibraryStore(path: string, driver?: LibraryOptions['driver']): ReturnType<typeof openSqliteStore> {
  return openSqliteStore({ path, ...(driver !== undefined ? { driver } : {}) });
}

export function openPgLibraryStore(place: PgPlace): Promise<StateStore> {
  return openPostgresStore({ connectionString: place.url, schema: place.schema, maxConnections: place.maxConnections });
}

/** The facade over an opened store; resolves after the restart scan. */
export function startOnStore(store: StateStore, options: LibraryOptions = {}): Promise<Awareness> {
  const { fixedNow, maxRows, maxAgeMs, wake, ownsSession } = options;
  return createSessionStateAwareness({
    store,
    logger: quietLogger,
    wake: wake ?? ((): void => undefined),
    retention: { ...(maxRows !== undefined ? { maxRows } : {}), ...(maxAgeMs !== undefined ? { maxAgeMs } : {}) },
    ...(fixedNow !== undefined ? { clock: createManualClock(fixedNow) } : {}),
    ...(ownsSession !== undefined ? { ownsSession } : {}),
  });
}

export const startSqlite = (path: string, options: LibraryOptions = {}): Promise<Awareness> => startOnStore(openLibraryStore(path, options.driver), options);
export const startMemory = (options: LibraryOptions = {}): Promise<Awareness> => startOnStore(createMemoryStore(), options);
