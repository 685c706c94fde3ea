// One durable state that several gateway processes open at once, each with a store of its own: a
// memory store shared by views (a closed view leaves the state to the next one), one SQLite file,
// or one PostgreSQL schema (each handle its own pool and LISTEN connection). The delivery tests
// open a handle per gateway and a new one at every restart.
import { createMemoryStore } from '@session-state/adapters-memory';
import { storeError, type StateStore } from '@session-state/domain';
import { tempDbPath, uniqueSchema, withClient } from '@session-state/testkit';

/** One durable state: `open` gives one more process its own store on it. */
export interface SharedState {
  open(): Promise<StateStore>;
  /** Removes the state (files, schema) once every handle is closed. */
  cleanup(): Promise<void>;
}

export interface SharedKind {
  readonly name: string;
  create(): Promise<SharedState>;
}

/** A view of `shared` that can be closed alone: afterwards it rejects, as a closed store does. */
function memoryView(shared: StateStore): StateStore {
  let closed = false;
  return new Proxy(shared, {
    get(target, name, receiver) {
      if (name === 'close') return async (): Promise<void> => void (closed = true);
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => (closed ? Promise.reject(storeError(String(name), new Error('this view is closed'))) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

export const memoryShared: SharedKind = {
  name: 'memory',
  async create() {
    const shared = createMemoryStore();
    return { open: async () => memoryView(shared), cleanup: () => shared.close() };
  },
};

function sqliteSharedOn(name: string, driver: 'better-sqlite3' | 'node:sqlite'): SharedKind {
  return {
    name,
    async create() {
      const { openSqliteStore } = await import('@session-state/adapters-sqlite');
      const temp = tempDbPath();
      return { open: async () => openSqliteStore({ path: temp.path, driver }), cleanup: async () => temp.remove() };
    },
  };
}

export const sqliteShared = sqliteSharedOn('sqlite', 'better-sqlite3');
export const nodeSqliteShared = sqliteSharedOn('sqlite (node:sqlite)', 'node:sqlite');

/** Migrated schemas emptied for the next state: migrating a schema costs far more than emptying one. */
const emptiedSchemas: string[] = [];

/** PostgreSQL at SESSION_STATE_PG_URL, a schema per state; `dropSharedSchemas` (afterAll) drops them. */
export const postgresShared: SharedKind = {
  name: 'postgres',
  async create() {
    const { openPostgresStore } = await import('@session-state/adapters-postgres');
    const { pgUrl } = await import('@session-state/testkit');
    const schema = emptiedSchemas.pop() ?? uniqueSchema('delivery');
    return {
      open: () => openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 2 }),
      cleanup: async () => {
        await withClient(async (client) => {
          const tables = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'`, [schema]);
          const sequences = await client.query<{ name: string }>(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1`, [schema]);
          await client.query([...tables.rows.map((t) => `DELETE FROM ${schema}.${t.name};`), ...sequences.rows.map((q) => `ALTER SEQUENCE ${schema}.${q.name} RESTART;`)].join(''));
        });
        emptiedSchemas.push(schema);
      },
    };
  },
};

export async function dropSharedSchemas(): Promise<void> {
  const { dropSchema } = await import('@session-state/testkit');
  for (const schema of emptiedSchemas.splice(0)) await dropSchema(schema);
}
