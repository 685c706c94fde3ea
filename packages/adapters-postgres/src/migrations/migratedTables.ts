// What the generated migrations create: drizzle-kit's input (see drizzle.config.ts), the store's
// tables in the placeholder schema. The bookkeeping table is the runner's own (see migrate.ts),
// so it is left out.
import { storeTables } from '../schema.js';
import { MIGRATION_SCHEMA_PLACEHOLDER } from './placeholder.js';

export const { eventSequence, events, heads, cursors, cursorJournal } = storeTables(MIGRATION_SCHEMA_PLACEHOLDER);
