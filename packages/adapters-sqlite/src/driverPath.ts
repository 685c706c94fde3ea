// The file better-sqlite3 loads from, resolved from this package, for the worker threads: their
// code is a CommonJS string run with eval, so they require the very driver the store uses by path.
import { createRequire } from 'node:module';

export function betterSqlite3Path(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}
