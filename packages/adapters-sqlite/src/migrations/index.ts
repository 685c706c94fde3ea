// Every committed migration, in version order: drizzle-kit's, generated from src/schema.ts into
// drizzle/ and embedded in generated.ts (see tools/drizzleMigrations.js). Version 1 (initial) and
// 2 (cursor_journal) create what the hand-written migrations of the same versions created, so a
// file they made is up to date.
import { GENERATED_MIGRATIONS } from './generated.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = GENERATED_MIGRATIONS;

/** The newest schema version: the version a file has once every migration ran. */
export const NEWEST_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
