// What a file's schema means, written so that two files can be compared whatever SQL text made
// them (quoting, type-name case, a unique constraint or a unique index): the columns, the
// indexes with their key columns, uniqueness and partial WHERE, and which tables AUTOINCREMENT.
import type Database from 'better-sqlite3';

interface IndexListRow {
  readonly name: string;
  readonly unique: number;
  readonly origin: string;
  readonly partial: number;
}

/** `"cursors"."material" > "cursors"."acked"` and `material > acked` both read `material > acked`. */
function normalisedWhere(sql: string | null, table: string): string | null {
  const where = sql?.match(/\bWHERE\b([\s\S]*)$/i)?.[1];
  if (where === undefined) return null;
  return where.replace(/["`]/g, '').replaceAll(`${table}.`, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

export function schemaShape(client: Database.Database): Record<string, unknown> {
  const tables = client
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string; sql: string }[];
  const shape: Record<string, unknown> = {};
  for (const { name, sql } of tables) {
    const columns = (client.prepare(`PRAGMA table_info(${name})`).all() as { name: string; type: string; notnull: number; dflt_value: unknown; pk: number }[]).map(
      (c) => ({ ...c, type: c.type.toUpperCase() }),
    );
    const indexes = (client.prepare(`PRAGMA index_list(${name})`).all() as IndexListRow[])
      .filter((i) => i.origin !== 'pk')
      .map((i) => {
        const keys = (client.prepare(`PRAGMA index_xinfo(${i.name})`).all() as { name: string | null; key: number; desc: number }[])
          .filter((c) => c.key === 1)
          .map((c) => `${c.name}${c.desc === 1 ? ' desc' : ''}`);
        const indexSql = client.prepare('SELECT sql FROM sqlite_master WHERE type = ? AND name = ?').pluck().get('index', i.name) as string | null;
        // A UNIQUE constraint's index is unnamed (sqlite_autoindex_…); a unique index is named: the same uniqueness.
        return { name: i.unique === 1 ? '(unique)' : i.name, unique: i.unique, partial: i.partial, keys, where: normalisedWhere(indexSql, name) };
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    shape[name] = { columns, indexes, autoincrement: /AUTOINCREMENT/i.test(sql) };
  }
  return shape;
}
