// Opens (creating and migrating if needed) the store's schema on a PostgreSQL server and returns
// the StateStore port over a connection pool; `listen` adds the cross-process signals.
import { storePort } from '@session-state/adapters-sql-common';
import type { StateStore } from '@session-state/domain';
import pg from 'pg';

import { acknowledgeRead } from './acknowledgeRead.js';
import { appendEvents } from './appendEvents.js';
import { channelOf, clientConfig, poolConfig, unboundedConfig } from './connection.js';
import { countPendingCursors } from './countPendingCursors.js';
import { readCursorJournal } from './cursorJournal.js';
import { deleteSession } from './deleteSession.js';
import { drain } from './drain.js';
import { drainThenAppend } from './drainThenAppend.js';
import { listCursors } from './listCursors.js';
import { listenForSignals } from './listen.js';
import { migrate } from './migrations/migrate.js';
import { checkOptions, type PostgresStoreOptions } from './options.js';
import { pendingNotices } from './pendingNotices.js';
import { prune, PRUNE_BATCH_ROWS } from './prune.js';
import { readChanges, readSessionChanges } from './readChanges.js';
import { readHeads } from './readHeads.js';
import { readOverview } from './readOverview.js';
import { recover } from './recover.js';
import { resetWatcher } from './resetWatcher.js';
import { previewPrune, vacuum } from './maintenance.js';
import { storeTables } from './schema.js';
import { prepareStatements } from './statements.js';
import type { StoreDb } from './storeDb.js';
import { consoleLogger, logCorruptRow } from './storeLogger.js';
import { withUnboundedClient } from './unboundedClient.js';
import { unwatch } from './unwatch.js';
import { watch } from './watch.js';
import { nodePostgres } from './drizzle.js';

const { drizzle } = nodePostgres;

/**
 * The PostgreSQL StateStore. Several gateways (processes, machines) may open the same database
 * and schema: a session's appends are ordered by its head-row lock, cursors by their row locks,
 * and every operation is one transaction (retried whole after a deadlock). `listen` delivers the
 * cross-process signals a facade with `ownsSession` needs.
 *
 * @example const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<StateStore> {
  const checked = checkOptions(options);
  const config = clientConfig(checked);
  const logger = options.logger ?? consoleLogger;
  const pool = new pg.Pool(poolConfig(checked));
  // An idle pooled connection that breaks is replaced on next use; without a listener the
  // pool's error event would end the process.
  pool.on('error', (error) => logger.warn({ error: error.message }, 'an idle connection failed; the pool replaces it'));
  // Every pooled client hears 'error' for its whole life. The pool's own listener and checkOut's
  // leave a gap: a backend terminated right after startup sends its FATAL in the same packet as
  // the ReadyForQuery that hands the new client out, before checkOut can listen. The loss is
  // still seen by whoever holds the client (its queries reject) or by the pool.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // The server processes of this pool's connections: their notifications are this store's own
  // commits, whose outcomes its caller already has, so its listener skips them (listen.ts).
  const ownBackends = new Set<number>();
  pool.on('connect', (client) => ownBackends.add(backendOf(client)));
  pool.on('remove', (client) => ownBackends.delete(backendOf(client)));
  let db: StoreDb;
  try {
    const tables = storeTables(checked.schema);
    const orm = drizzle({ client: pool, schema: tables });
    const unbounded = unboundedConfig(checked);
    const onCorruptRow = options.onCorruptRow ?? logCorruptRow(logger);
    db = { pool, orm, tables, statements: prepareStatements(orm, tables), channel: channelOf(checked.schema), onCorruptRow, unboundedConfig: unbounded };
    // Without the pool's bounds: a migration may rewrite a large table, and a gateway opening
    // beside another that migrates waits for it (the advisory lock in migrate).
    await withUnboundedClient(unbounded, (client) => migrate(client, checked.schema));
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }

  // The port wiring (whole-ms clocks, StoreError rejections) is adapters-sql-common's storePort.
  let closed: Promise<void> | undefined;
  const operations = { append: appendEvents, watch, readChanges, readSessionChanges, readHeads, listCursors, readCursorJournal, drain, drainThenAppend, pendingNotices, countPendingCursors, readOverview };
  const close = (): Promise<void> => (closed ??= pool.end());
  return storePort(() => db, { ...operations, acknowledgeRead, restartScan: recover, resetWatcher, unwatch, deleteSession, prune, previewPrune, vacuum, close, pruneBatchRows: PRUNE_BATCH_ROWS }, (listener) =>
    listenForSignals({ config, channel: db.channel, isOwnBackend: (pid) => ownBackends.has(pid) }, listener),
  );
}

/** The server process id a connected client talks to (node-postgres keeps it from BackendKeyData). */
const backendOf = (client: pg.PoolClient): number => (client as unknown as { readonly processID: number }).processID;
