// Every committed migration, in version order: drizzle-kit's, embedded in generated.ts.
import { GENERATED_MIGRATIONS } from './generated.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = GENERATED_MIGRATIONS;

/** The newest schema version: the version a file has once every migration ran. */
export const NEWEST_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
