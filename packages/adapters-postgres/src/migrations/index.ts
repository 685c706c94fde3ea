// Every committed migration in version order: drizzle-kit's, embedded in generated.ts. They create
// what the earlier hand-written migrations of the same versions did.
import { GENERATED_MIGRATIONS } from './generated.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';
export { MIGRATION_SCHEMA_PLACEHOLDER } from './placeholder.js';

export const MIGRATIONS: readonly Migration[] = GENERATED_MIGRATIONS;
