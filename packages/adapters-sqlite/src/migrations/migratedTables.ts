// The tables the generated migrations create: drizzle-kit's input (see drizzle.config.ts). The
// bookkeeping table is the runner's own (see migrate.ts), so it is left out.
export { cursorJournal, cursors, events, heads } from '../schema.js';
