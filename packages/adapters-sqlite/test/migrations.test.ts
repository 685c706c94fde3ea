// The committed migrations: an empty file migrates to exactly the drizzle schema, with the
// indexes the hot queries need, the bookkeeping rows, and the pragmas set at open.
import Database from 'better-sqlite3';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { MIGRATIONS, openSqliteStore } from '../src';
import { migrate, schemaVersion } from '../src/migrations/migrate';
import { openStoreDb } from '../src/openSqliteStore';
import { cursorJournal, cursors, events, heads, schemaMigrations } from '../src/schema';

let temp: TempDb;
beforeEach(() => {
  temp = tempDbPath();
});
afterEach(() => temp.remove());

/** Opens and closes the store once, so the file holds the migrated schema. */
async function migratedFile(): Promise<Database.Database> {
  await openSqliteStore({ path: temp.path }).close();
  return new Database(temp.path);
}

describe('migrating an empty file', () => {
  test('creates every drizzle table with exactly its columns, types and nullability', async () => {
    const raw = await migratedFile();
    try {
      for (const table of [events, heads, cursors, cursorJournal, schemaMigrations]) {
        const config = getTableConfig(table);
        const info = raw.prepare(`PRAGMA table_info(${config.name})`).all() as { name: string; type: string; notnull: number }[];
        const expected = config.columns.map((c) => ({ name: c.name, type: c.getSQLType().toUpperCase(), notnull: c.notNull ? 1 : 0 }));
        expect(info.map(({ name, type, notnull }) => ({ name, type, notnull }))).toEqual(expected);
      }
    } finally {
      raw.close();
    }
  });

  test('creates every index the drizzle schema declares, the lagging one partial', async () => {
    const raw = await migratedFile();
    try {
      for (const table of [events, cursors, cursorJournal]) {
        const config = getTableConfig(table);
        const declared = config.indexes.map((i) => i.config.name).sort();
        const present = (raw.prepare(`PRAGMA index_list(${config.name})`).all() as { name: string; origin: string; partial: number }[])
          .filter((i) => i.origin === 'c')
          .map((i) => i.name)
          .sort();
        expect(present).toEqual(declared);
      }
      const lagging = (raw.prepare('PRAGMA index_list(cursors)').all() as { name: string; partial: number }[]).find(
        (i) => i.name === 'cursors_lagging',
      );
      expect(lagging?.partial).toBe(1);
      const dedupe = (raw.prepare('PRAGMA index_list(events)').all() as { name: string; unique: number }[]).filter((i) => i.unique === 1);
      expect(dedupe.length).toBe(1);
      // AUTOINCREMENT: the counter lives in sqlite_sequence, so sequences are never reused.
      expect(raw.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").pluck().get()).toMatch(/AUTOINCREMENT/);
      // The journal's positions too: an entry's position is never given to a later one.
      expect(raw.prepare("SELECT sql FROM sqlite_master WHERE name = 'cursor_journal'").pluck().get()).toMatch(/AUTOINCREMENT/);
    } finally {
      raw.close();
    }
  });

  test('records every migration in schema_migrations and user_version', async () => {
    const raw = await migratedFile();
    try {
      const newest = Math.max(...MIGRATIONS.map((m) => m.version));
      expect(schemaVersion(raw)).toBe(newest);
      const rows = raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    } finally {
      raw.close();
    }
  });

  test('reopening applies nothing again and keeps the data', async () => {
    const first = new Database(temp.path);
    try {
      expect(migrate(first)).toEqual(MIGRATIONS.map((m) => m.version));
      first.prepare("INSERT INTO heads (session_key, head, prune_watermark) VALUES ('agent:a:main', 7, 0)").run();
      expect(migrate(first)).toEqual([]);
      expect(first.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS.length);
      expect(first.prepare('SELECT head FROM heads').pluck().get()).toBe(7);
    } finally {
      first.close();
    }
  });

  test('a file at version 1 gains the cursor journal (empty) and keeps its data', async () => {
    const old = new Database(temp.path);
    try {
      expect(migrate(old, MIGRATIONS.slice(0, 1))).toEqual([1]);
      old.prepare("INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES ('agent:a:main', 'agent:b:main', 0, 0, 0, 1)").run();
    } finally {
      old.close();
    }
    const store = openSqliteStore({ path: temp.path });
    try {
      expect((await store.listCursors()).map((row) => row.target)).toEqual(['agent:b:main']);
      expect(await store.readCursorJournal()).toEqual([]);
    } finally {
      await store.close();
    }
    const raw = new Database(temp.path);
    try {
      expect(schemaVersion(raw)).toBe(2);
    } finally {
      raw.close();
    }
  });

  test('a file from a newer schema version is refused with a clear error', () => {
    const raw = new Database(temp.path);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openSqliteStore({ path: temp.path })).toThrow(/schema version 999 is newer/);
  });
});

describe('pragmas at open', () => {
  test('WAL, synchronous NORMAL and the given busy timeout are set on the store connection', () => {
    const db = openStoreDb({ path: temp.path, busyTimeoutMs: 1234 });
    try {
      expect(db.client.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.client.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(db.client.pragma('busy_timeout', { simple: true })).toBe(1234);
    } finally {
      db.client.close();
    }
  });

  test("durability 'full' sets synchronous FULL", () => {
    const db = openStoreDb({ path: temp.path, durability: 'full' });
    try {
      expect(db.client.pragma('synchronous', { simple: true })).toBe(2); // FULL
    } finally {
      db.client.close();
    }
  });

  test('the busy timeout defaults to 5000 ms', () => {
    const db = openStoreDb({ path: temp.path });
    try {
      expect(db.client.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      db.client.close();
    }
  });

  test.each([
    [{ path: '' }, /path must be a file path or ":memory:", got ""/],
    [{ path: 'x', busyTimeoutMs: -1 }, /busyTimeoutMs must be a non-negative integer, got -1/],
    [{ path: 'x', busyTimeoutMs: 1.5 }, /busyTimeoutMs must be a non-negative integer, got 1.5/],
    [{ path: 'x', durability: 'paranoid' as 'full' }, /durability must be "normal" or "full", got "paranoid"/],
  ])('bad options are rejected naming the field and the value: %j', (options, message) => {
    expect(() => openSqliteStore(options)).toThrow(message);
  });
});
