// The shape of one committed schema migration.

/**
 * A forward-only migration, recorded in `schema_migrations` once `sql` has run. `sql` is one or
 * more drizzle-kit migrations (statements separated by `--> statement-breakpoint` comments), its
 * names qualified with the placeholder schema (see placeholder.ts).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
