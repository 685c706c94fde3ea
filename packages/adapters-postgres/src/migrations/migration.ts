/** A forward-only migration, recorded in `schema_migrations` once `sql` (drizzle-kit's, in the placeholder schema) has run. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
