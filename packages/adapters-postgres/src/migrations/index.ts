// Every committed migration in version order: drizzle-kit's, embedded in generated.ts.
import { GENERATED_MIGRATIONS } from './generated.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';
export { MIGRATION_SCHEMA_PLACEHOLDER } from './placeholder.js';

export const MIGRATIONS: readonly Migration[] = GENERATED_MIGRATIONS;
