// The shape of one committed schema migration.

/** A forward-only migration: `version` is written to `PRAGMA user_version` once `sql` has run. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
