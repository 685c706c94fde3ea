// drizzle-kit's input: the store's tables in the placeholder schema, without the runner's own bookkeeping table.
import { storeTables } from '../schema.js';
import { MIGRATION_SCHEMA_PLACEHOLDER } from './placeholder.js';

export const { eventSequence, events, heads, cursors, cursorJournal } = storeTables(MIGRATION_SCHEMA_PLACEHOLDER);
