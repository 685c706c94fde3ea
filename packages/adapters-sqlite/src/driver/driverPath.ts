// `require` resolved from this package, for the drivers: each is loaded only when chosen
// (better-sqlite3 is an optional peer; node:sqlite is missing on older Nodes), and the worker
// threads, whose code is a CommonJS string run with eval, load the very driver the store uses by path.
import { createRequire } from 'node:module';

export const requireDriver = createRequire(import.meta.url);
