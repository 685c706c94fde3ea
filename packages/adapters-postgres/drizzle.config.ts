// drizzle-kit's configuration: drizzle/ is generated from src/schema.ts in the placeholder schema (src/migrations/placeholder.ts);
// `npm run check:migrations` (root) regenerates into DRIZZLE_OUT and fails when that would add a migration.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({ dialect: 'postgresql', schema: './src/migrations/migratedTables.ts', out: process.env['DRIZZLE_OUT'] ?? './drizzle' });
