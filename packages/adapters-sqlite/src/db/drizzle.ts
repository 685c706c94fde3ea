// drizzle-orm loaded through require, as CommonJS: its ESM build makes every cold start (each CLI
// command, each hook) far slower, since Node's ESM resolver re-reads drizzle's large exports map
// for each of its modules (docs/decisions/drizzle-as-commonjs.md). The types come from the usual
// type imports. Where this module runs as CommonJS (drizzle-kit's loader), import.meta has no url.
import { createRequire } from 'node:module';

import type * as DrizzleOrm from 'drizzle-orm';
import type * as SqliteCore from 'drizzle-orm/sqlite-core';
import type * as SqliteProxy from 'drizzle-orm/sqlite-proxy';

const load = createRequire(import.meta.url ?? __filename);

export const orm = load('drizzle-orm') as typeof DrizzleOrm;
export const sqliteCore = load('drizzle-orm/sqlite-core') as typeof SqliteCore;
export const sqliteProxy = load('drizzle-orm/sqlite-proxy') as typeof SqliteProxy;
