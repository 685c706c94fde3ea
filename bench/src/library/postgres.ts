// The library side of the PostgreSQL column: the public facade over `openPostgresStore`, on a
// schema of its own, created exactly as a gateway would create it (one gateway, unless the
// workload passes `ownsSession` to open several on one schema).
import { openPostgresStore } from '@session-state/adapters-postgres';
import type { StateStore } from '@session-state/domain';

import { startOnStore, type Awareness, type LibraryOptions } from './facade.js';

/** Where a PostgreSQL store lives: the server and the schema (each side of a workload its own). */
export interface PgPlace {
  readonly url: string;
  readonly schema: string;
  /** The pool size, the same on the library and the raw side. */
  readonly maxConnections: number;
}

/** Opens the PostgreSQL store on `place` (creating and migrating its schema) without starting the facade. */
export function openPgLibraryStore(place: PgPlace): Promise<StateStore> {
  return openPostgresStore({ connectionString: place.url, schema: place.schema, maxConnections: place.maxConnections });
}

/** The facade over a fresh PostgreSQL store at `place`. */
export async function startPostgres(place: PgPlace, options: LibraryOptions = {}): Promise<Awareness> {
  return startOnStore(await openPgLibraryStore(place), options);
}
