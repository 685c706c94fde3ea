// What a store schema means, read from the catalog and written without the schema's name, so
// that two schemas can be compared whatever SQL made them: tables, columns (type, collation,
// nullability, default, identity), constraints, indexes (PostgreSQL's own rendering of each) and
// sequences.
import type { ClientBase } from 'pg';

export async function schemaShape(client: ClientBase, schemaName: string): Promise<Record<string, unknown>> {
  const anonymous = (text: string) => text.replaceAll(`${schemaName}.`, 'S.').replaceAll(`"${schemaName}".`, 'S.');
  const columns = await client.query(
    `SELECT table_name, column_name, data_type, collation_name, is_nullable, column_default, is_identity, identity_generation
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    [schemaName],
  );
  const constraints = await client.query(
    `SELECT cl.relname AS table_name, co.conname, co.contype, pg_get_constraintdef(co.oid) AS definition
       FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
      WHERE n.nspname = $1 ORDER BY cl.relname, co.conname`,
    [schemaName],
  );
  const indexes = await client.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY tablename, indexname`, [schemaName]);
  const sequences = await client.query(
    `SELECT sequencename, data_type::text, start_value, min_value, max_value, increment_by, cycle, cache_size
       FROM pg_sequences WHERE schemaname = $1 ORDER BY sequencename`,
    [schemaName],
  );
  return {
    columns: columns.rows.map((row) => ({ ...row, column_default: row.column_default === null ? null : anonymous(row.column_default) })),
    constraints: constraints.rows,
    indexes: indexes.rows.map((row) => ({ ...row, indexdef: anonymous(row.indexdef) })),
    sequences: sequences.rows,
  };
}
