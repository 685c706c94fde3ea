// Opens (creating and migrating if needed) the store's schema on a PostgreSQL server and returns
// the StateStore port over a connection pool; `listen` adds the cross-process signals.
import { drizzle } from 'drizzle-orm/node-postgres';
import { storeError, type StateStore } from '@session-state/domain';
import pg from 'pg';

import { appendEvents } from './appendEvents';
import { checkOut } from './checkOut';
import { wholeMs, withWholeMs } from './clockMs';
import { channelOf, clientConfig } from './connection';
import { readCursorJournal } from './cursorJournal';
import { deleteSession } from './deleteSession';
import { drain } from './drain';
import { listCursors } from './listCursors';
import { listenForSignals } from './listen';
import { migrate } from './migrations/migrate';
import { checkOptions, type PostgresStoreOptions } from './options';
import { pendingNotices } from './pendingNotices';
import { prune } from './prune';
import { readChanges, readSessionChanges } from './readChanges';
import { readHeads } from './readHeads';
import { recover } from './recover';
import { resetWatcher } from './resetWatcher';
import { storeTables } from './schema';
import { prepareStatements } from './statements';
import type { CorruptRowInfo, StoreDb } from './storeDb';
import { watch } from './watch';

function warnCorruptRow(info: CorruptRowInfo): void {
  const where = info.sequence !== undefined ? ` (sequence ${info.sequence})` : '';
  console.warn(`session-state postgres: skipped a corrupt ${info.table} row${where} in ${info.operation}: ${info.reason}`);
}

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
  const pool = new pg.Pool({ ...config, max: checked.maxConnections });
  // An idle pooled connection that breaks is replaced on next use; without a listener the
  // pool's error event would end the process.
  pool.on('error', (error) => console.warn(`session-state postgres: an idle connection failed: ${error.message}`));
  // Every pooled client hears 'error' for its whole life. The pool's own listener and checkOut's
  // leave a gap: a backend terminated right after startup sends its FATAL in the same packet as
  // the ReadyForQuery that hands the new client out, before checkOut can listen. The loss is
  // still seen by whoever holds the client (its queries reject) or by the pool.
  pool.on('connect', (client) => client.on('error', () => undefined));
  let db: StoreDb;
  try {
    const tables = storeTables(checked.schema);
    const orm = drizzle({ client: pool, schema: tables });
    db = { pool, orm, tables, statements: prepareStatements(orm, tables), channel: channelOf(checked.schema), onCorruptRow: options.onCorruptRow ?? warnCorruptRow };
    const held = await checkOut(pool);
    try {
      await migrate(held.client, checked.schema);
    } finally {
      held.release();
    }
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }

  // Driver exceptions become a tagged StoreError rejection naming the port method.
  const run = async <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      throw storeError(operation, e);
    }
  };
  let closed: Promise<void> | undefined;

  const store: StateStore = {
    append: (batch) => run('append', () => appendEvents(db, withWholeMs(batch))),
    watch: (request) => run('watch', () => watch(db, { ...request, now: wholeMs(request.now) })),
    readChanges: (sessionKey, since, limit) => run('readChanges', () => readChanges(db, sessionKey, since, limit)),
    readSessionChanges: (sessionKey, since, limit) => run('readSessionChanges', () => readSessionChanges(db, sessionKey, since, limit)),
    readHeads: (sessionKeys) => run('readHeads', () => readHeads(db, sessionKeys)),
    listCursors: (filter) => run('listCursors', () => listCursors(db, filter)),
    readCursorJournal: (filter) => run('readCursorJournal', () => readCursorJournal(db, filter)),
    drain: (watcher, acks, now) => run('drain', () => drain(db, watcher, acks, wholeMs(now))),
    restartScan: (now, owns) => run('restartScan', () => recover(db, wholeMs(now), owns)),
    pendingNotices: (owns, targets) => run('pendingNotices', () => pendingNotices(db, owns, targets)),
    resetWatcher: (watcher, now) => run('resetWatcher', () => resetWatcher(db, watcher, wholeMs(now))),
    deleteSession: (sessionKey, now) => run('deleteSession', () => deleteSession(db, sessionKey, wholeMs(now))),
    prune: (request) => run('prune', () => prune(db, { ...request, now: wholeMs(request.now) })),
    listen: (listener) => listenForSignals({ config, channel: db.channel }, listener),
    close: () => {
      closed ??= run('close', () => pool.end());
      return closed;
    },
  };
  return store;
}
