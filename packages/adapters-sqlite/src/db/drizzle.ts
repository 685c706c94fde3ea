// drizzle-orm loaded as CommonJS, which starts far faster than its ESM build (docs/decisions/drizzle-as-commonjs.md).
import { createRequire } from 'node:module';

import type * as DrizzleOrm from 'drizzle-orm';
import type * as SqliteCore from 'drizzle-orm/sqlite-core';
import type * as SqliteProxy from 'drizzle-orm/sqlite-proxy';

// Under drizzle-kit's CommonJS loader import.meta has no url.
const load = createRequire(import.meta.url ?? __filename);

export const orm = load('drizzle-orm') as typeof DrizzleOrm;
export const sqliteCore = load('drizzle-orm/sqlite-core') as typeof SqliteCore;
export const sqliteProxy = load('drizzle-orm/sqlite-proxy') as typeof SqliteProxy;
