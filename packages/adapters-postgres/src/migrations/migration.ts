// The shape of one committed schema migration.

/** A forward-only migration, recorded in `schema_migrations` once `sql` has run. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
