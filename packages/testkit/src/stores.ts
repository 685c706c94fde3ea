// The one store harness: each store kind opens a store on fresh state and can reopen the same
// durable state (a restart) and clean up. The contract suite, the adapters' tests and the
// facade's tests all take their stores from here. Each kind loads its adapter when it opens, so
// a team running only the contract against its own store installs none of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { storeError, type StateStore } from '@session-state/domain';

import { dropSchema, pgUrl, uniqueSchema } from './postgresSchemas.js';

// --- the harness ---------------------------------------------------------------------------

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
  /**
   * Whether the store offers the optional lean read `readSessionChanges` (default true). The
   * contract then requires it, so an adapter cannot lose it silently.
   */
  readonly leanReads?: boolean;
}

/** A kind of store: its name (for `describe.each`) and how to open a harness on fresh state. */
export interface StoreKind {
  readonly name: string;
  open(): Promise<StoreHarness>;
}

// --- memory --------------------------------------------------------------------------------

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
    const { createMemoryStore } = await import('@session-state/adapters-memory');
    const shared = createMemoryStore();
    let latest = memoryView(shared);
    return {
      store: latest,
      reopen: async () => {
        await latest.close();
        latest = memoryView(shared);
        return latest;
      },
      cleanup: async () => {
        await latest.close();
        await shared.close();
      },
    };
  },
};

// --- SQLite --------------------------------------------------------------------------------

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
      let latest = openSqliteStore({ path: temp.path, driver });
      return {
        store: latest,
        reopen: async () => {
          await latest.close();
          latest = openSqliteStore({ path: temp.path, driver });
          return latest;
        },
        cleanup: async () => {
          await latest.close();
          temp.remove();
        },
      };
    },
  };
}

/** SQLite on better-sqlite3. */
export const sqliteKind: StoreKind = sqliteKindOn('sqlite', 'better-sqlite3');

/** SQLite on Node's built-in node:sqlite. */
export const nodeSqliteKind: StoreKind = sqliteKindOn('sqlite (node:sqlite)', 'node:sqlite');

// --- PostgreSQL ----------------------------------------------------------------------------

/** PostgreSQL at SESSION_STATE_PG_URL, in a schema of its own; a reopen opens a new pool on the same schema. */
export const postgresKind: StoreKind = {
  name: 'postgres',
  async open() {
    const { openPostgresStore } = await import('@session-state/adapters-postgres');
    const schema = uniqueSchema('kit');
    const open = () => openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 4 });
    let latest = await open();
    return {
      store: latest,
      reopen: async () => {
        await latest.close();
        latest = await open();
        return latest;
      },
      cleanup: async () => {
        await latest.close();
        await dropSchema(schema);
      },
    };
  },
};

// --- the matrix ----------------------------------------------------------------------------

/** The stores every facade test runs against (PostgreSQL has suites of its own, run when a server is set). */
export const STORE_KINDS: readonly StoreKind[] = [memoryKind, sqliteKind, nodeSqliteKind];

/** `describe.each` rows: `[name, kind]`. */
export const storeMatrix = STORE_KINDS.map((kind) => [kind.name, kind] as const);
