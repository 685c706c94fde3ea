// Opens (creating and migrating if needed) the store's schema and returns the store over a pool: port, overview, maintenance and signals.
import { logCorruptRow, storeLogger, storePort } from '@session-state/adapters-sql-common';
import type { CursorSignalSource, OverviewSource, StateStore, StoreMaintenance } from '@session-state/domain';
import pg from 'pg';

import { checkOptions, type PostgresStoreOptions } from './connection/options.js';
import { channelOf, clientConfig, poolConfig, unboundedConfig, withUnboundedClient } from './connection/pool.js';
import { migrate } from './migrations/migrate.js';
import { acknowledgeRead } from './operations/acknowledgeRead.js';
import { appendBatch, drain } from './operations/drain.js';
import { readCursorJournal } from './operations/journal.js';
import { previewPrune, prune, vacuum } from './operations/prune.js';
import { listCursors, readChanges, readHeads, readOverview } from './operations/reads.js';
import { deleteSession, resetWatcher, unwatch } from './operations/removal.js';
import { scanPending } from './operations/scanPending.js';
import { watch } from './operations/watch.js';
import { storeTables } from './schema.js';
import { listenForSignals } from './signals/listen.js';
import { prepareStatements } from './statements.js';
import type { StoreDb } from './storeDb.js';

/** What `openPostgresStore` gives: the port, the inspector's overview, the CLI's maintenance and cross-process signals. */
export type PostgresStore = StateStore & OverviewSource & StoreMaintenance & CursorSignalSource;

/**
 * The PostgreSQL store; several gateways may open the same database and schema.
 *
 * @example const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const checked = checkOptions(options);
  const logger = storeLogger('Postgres', options.logger);
  const config = clientConfig(checked);
  const pool = new pg.Pool(poolConfig(checked));
  // Unheard, an idle connection's failure would end the process; the pool replaces it on next use.
  pool.on('error', (error) => logger.warn({ error: error.message }, 'an idle connection failed; the pool replaces it'));
  // A backend terminated right after startup fails before checkOut listens; whoever holds the client still sees it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // The pool's own server processes: the listener skips their notifications (this store's own commits).
  const ownBackends = new Set<number>();
  pool.on('connect', (client) => ownBackends.add(backendOf(client)));
  pool.on('remove', (client) => ownBackends.delete(backendOf(client)));
  let db: StoreDb;
  try {
    const tables = storeTables(checked.schema);
    const unbounded = unboundedConfig(checked);
    const onCorruptRow = options.onCorruptRow ?? logCorruptRow(logger);
    db = { pool, tables, statements: prepareStatements(tables), channel: channelOf(checked.schema), onCorruptRow, unboundedConfig: unbounded };
    // Without the pool's bounds: a migration may run long, and a second opener waits on its advisory lock.
    await withUnboundedClient(unbounded, (client) => migrate(client, checked.schema));
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= pool.end());
  const ops = { readChanges, readHeads, listCursors, readCursorJournal, scanPending, readOverview, append: appendBatch, watch, drain, acknowledgeRead, resetWatcher, unwatch, deleteSession, prune, previewPrune, vacuum, close };
  const listen = { config, channel: db.channel, isOwnBackend: (pid: number) => ownBackends.has(pid) };
  return storePort(() => db, ops, (listener) => listenForSignals(listen, listener));
}

/** The server process id a connected client talks to (node-postgres keeps it from BackendKeyData). */
const backendOf = (client: pg.PoolClient): number => (client as unknown as { readonly processID: number }).processID;
