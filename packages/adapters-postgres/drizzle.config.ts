// drizzle-kit's configuration: the migrations in drizzle/ are generated from src/schema.ts, in
// the placeholder schema (see src/migrations/placeholder.ts).
// `npm run migrations:generate -- --name <what>` adds one after a schema change;
// `npm run check:migrations` (root) regenerates into a temporary folder (DRIZZLE_OUT) and fails
// when that would add a migration.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/migrations/migratedTables.ts',
  out: process.env['DRIZZLE_OUT'] ?? './drizzle',
});
