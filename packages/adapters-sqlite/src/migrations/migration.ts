// The shape of one committed schema migration.

/**
 * A forward-only migration: `version` is written to `PRAGMA user_version` once `sql` has run.
 * `sql` is one or more drizzle-kit migrations (statements separated by `--> statement-breakpoint`
 * comments).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
