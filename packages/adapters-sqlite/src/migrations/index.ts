// Every committed migration, in version order: drizzle-kit's, embedded in generated.ts.
import { GENERATED_MIGRATIONS as MIGRATIONS } from './generated.js';

export type { Migration } from './migration.js';
export { MIGRATIONS };

/** The newest schema version: the version a file has once every migration ran. */
export const NEWEST_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
