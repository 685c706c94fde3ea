// The one store harness: each store kind opens a store on fresh state and can reopen the same
// durable state (a restart) and clean up. The contract suite, the adapters' tests and the
// facade's tests all take their stores from here. Each kind loads its adapter when it opens, so
// a team running only the contract against its own store installs none of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { storeError, type CorruptRowInfo, type SessionKey, type StateStore } from '@session-state/domain';

import { pgUrl, releaseSchema, takeSchema, withClient } from './postgresSchemas.js';

/** One store under test on fresh state, and the durable state behind it. */
export interface StoreHarness {
  /** The store for the first user (a facade, or one contract test). */
  readonly store: StateStore;
  /**
   * Closes the latest store (closing it twice is harmless, so a facade may have closed it
   * already) and opens the same durable state again; returns the new store.
   */
  reopen(): Promise<StateStore>;
  /** Closes the latest store and removes whatever the harness created (files, a schema). */
  cleanup(): Promise<void>;
  /** Test only: damages one stored row behind the store's back, as a hand edit would. A harness without it is not checked against the corrupt-row policy. */
  corrupt?(row: RowDamage): Promise<void>;
  /** What the stores this harness opened reported through `onCorruptRow`, in order. */
  readonly corruptRows?: CorruptRowInfo[];
}

/** A stored row to damage, and how: each damage fails one check of every store's row decoding. */
export type RowDamage =
  | { readonly kind: 'event'; readonly sequence: number; readonly damage: 'kind' | 'actor' | 'payload' | 'payloadText' }
  | { readonly kind: 'cursor'; readonly watcher: SessionKey; readonly target: SessionKey; readonly damage: 'order' | 'acked' | 'notified' | 'material' }
  | { readonly kind: 'journal'; readonly position: number };

/** The content a damage writes: no report may contain it. */
export const CORRUPT_CONTENT = 'do-not-log-this-content';

/** The reason every store reports for each damage. */
export function corruptReason(row: RowDamage): string {
  if (row.kind === 'event') return row.damage === 'kind' ? 'unknown kind' : row.damage === 'actor' ? 'unknown actor type' : 'payload is not a JSON object';
  return row.kind === 'cursor' && row.damage !== 'order' ? 'a watermark is not a non-negative integer' : 'watermarks are out of order';
}

/** The SQL UPDATE of a damage, with `text` for what SQLite can store and PostgreSQL cannot (a PostgreSQL value is a JSON or out-of-range one). */
function damageSql(row: RowDamage, sqlite: boolean): { readonly sql: string; readonly key: readonly (string | number)[] } {
  if (row.kind === 'journal') return { sql: 'UPDATE cursor_journal SET notified = material + 5 WHERE position = ?', key: [row.position] };
  if (row.kind === 'event') {
    const payload = row.damage === 'payloadText' ? (sqlite ? `'{${CORRUPT_CONTENT}'` : `'"${CORRUPT_CONTENT}"'::json`) : `'[1, "${CORRUPT_CONTENT}"]'${sqlite ? '' : '::json'}`;
    const set = row.damage === 'kind' ? `kind = '${CORRUPT_CONTENT}'` : row.damage === 'actor' ? `actor_type = '${CORRUPT_CONTENT}'` : `payload = ${payload}`;
    return { sql: `UPDATE events SET ${set} WHERE sequence = ?`, key: [row.sequence] };
  }
  const huge = '4611686018427387904';
  const set = row.damage === 'order' ? 'notified = material + 5' : row.damage === 'material' ? (sqlite ? `material = 'x' || material` : `material = ${huge}`) : `${row.damage} = ${sqlite ? "'x'" : huge}`;
  return { sql: `UPDATE cursors SET ${set} WHERE watcher = ? AND target = ?`, key: [row.watcher, row.target] };
}

/** A kind of store: its name (for `describe.each`) and how to open a harness on fresh state. */
export interface StoreKind {
  readonly name: string;
  open(): Promise<StoreHarness>;
}

/** A harness over `open`: a reopen closes the latest store and opens again; cleanup closes it, then `dispose`. */
async function harnessOn(open: () => StateStore | Promise<StateStore>, extra: Pick<StoreHarness, 'corrupt' | 'corruptRows'>, dispose: () => unknown): Promise<StoreHarness> {
  let latest = await open();
  return {
    store: latest,
    ...extra,
    reopen: async () => {
      await latest.close();
      latest = await open();
      return latest;
    },
    cleanup: async () => {
      await latest.close();
      await dispose();
    },
  };
}

/**
 * A view of a memory store that can be closed on its own: after `close` its methods reject with
 * a StoreError naming the operation (as a closed store's do) while the state lives on for the
 * next view. That is what reopening a memory store means: same state, new handle.
 */
function memoryView(shared: StateStore): StateStore {
  let closed = false;
  const view: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(shared)) {
    if (typeof method !== 'function') continue;
    view[name] =
      name === 'close'
        ? async (): Promise<void> => {
            closed = true;
          }
        : (...args: unknown[]): unknown =>
            closed ? Promise.reject(storeError(name, new Error(`the memory store is closed (${name})`))) : (method as (...a: unknown[]) => unknown)(...args);
  }
  return view as unknown as StateStore;
}

/** Memory: a reopen is a new view over the same store object. */
export const memoryKind: StoreKind = {
  name: 'memory',
  async open() {
    const { corruptMemoryRow, createMemoryStore } = await import('@session-state/adapters-memory');
    const corruptRows: CorruptRowInfo[] = [];
    const shared = createMemoryStore({ onCorruptRow: (info) => corruptRows.push(info) });
    const corrupt = async (row: RowDamage): Promise<void> => {
      const ref = row.kind === 'event' ? { table: 'events', sequence: row.sequence } : row.kind === 'cursor' ? { table: 'cursors', watcher: row.watcher, target: row.target } : { table: 'cursor_journal', position: row.position };
      corruptMemoryRow(shared, ref as Parameters<typeof corruptMemoryRow>[1], corruptReason(row));
    };
    return harnessOn(() => memoryView(shared), { corruptRows, corrupt }, () => shared.close());
  },
};

/** A fresh temporary directory and database path, and its removal (with the WAL side files). */
export interface TempDb {
  readonly dir: string;
  readonly path: string;
  remove(): void;
}

export function tempDbPath(name = 'state.db'): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'session-state-sqlite-'));
  return { dir, path: join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** SQLite with `driver` on a temporary file; a reopen opens the same file again. */
function sqliteKindOn(name: string, driver: 'better-sqlite3' | 'node:sqlite'): StoreKind {
  return {
    name,
    async open() {
      const { openSqliteStore } = await import('@session-state/adapters-sqlite');
      const temp = tempDbPath();
      const corruptRows: CorruptRowInfo[] = [];
      const open = () => openSqliteStore({ path: temp.path, driver, onCorruptRow: (info) => corruptRows.push(info) });
      const corrupt = async (row: RowDamage): Promise<void> => {
        const { DatabaseSync } = await import('node:sqlite');
        const raw = new DatabaseSync(temp.path);
        try {
          raw.exec('PRAGMA busy_timeout = 5000');
          const { sql, key } = damageSql(row, true);
          raw.prepare(sql).run(...key);
        } finally {
          raw.close();
        }
      };
      return harnessOn(open, { corruptRows, corrupt }, temp.remove);
    },
  };
}

export const sqliteKind: StoreKind = sqliteKindOn('sqlite', 'better-sqlite3');

export const nodeSqliteKind: StoreKind = sqliteKindOn('sqlite (node:sqlite)', 'node:sqlite');

/** PostgreSQL at SESSION_STATE_PG_URL, in a schema of its own (new, or emptied after an earlier test); a reopen opens a new pool on it. */
export const postgresKind: StoreKind = {
  name: 'postgres',
  async open() {
    const { openPostgresStore } = await import('@session-state/adapters-postgres');
    const schema = takeSchema('kit');
    const corruptRows: CorruptRowInfo[] = [];
    const open = () => openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 4, onCorruptRow: (info) => corruptRows.push(info) });
    const corrupt = async (row: RowDamage): Promise<void> => {
      const { sql, key } = damageSql(row, false);
      let n = 0;
      await withClient((client) => client.query(sql.replace(/\?/g, () => `$${++n}`), [...key]), schema);
    };
    return harnessOn(open, { corruptRows, corrupt }, () => releaseSchema(schema));
  },
};

/** The stores every facade test runs against (PostgreSQL has suites of its own, run when a server is set). */
export const STORE_KINDS: readonly StoreKind[] = [memoryKind, sqliteKind, nodeSqliteKind];

/** `describe.each` rows: `[name, kind]`. */
export const storeMatrix = STORE_KINDS.map((kind) => [kind.name, kind] as const);
