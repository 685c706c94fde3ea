// drizzle-orm loaded as CommonJS, for cold starts (docs/decisions/drizzle-as-commonjs.md), on the
// first use of one of its exports: the SQLite store runs SQL text rendered ahead of time and never
// loads it. Under drizzle-kit's CommonJS loader import.meta has no url.
import { createRequire } from 'node:module';

import type * as DrizzleOrm from 'drizzle-orm';

let loaded: typeof DrizzleOrm | undefined;
/** drizzle-orm's exports, required when the first one is read. */
export const orm = new Proxy({} as typeof DrizzleOrm, { get: (_, name) => (loaded ??= createRequire(import.meta.url ?? __filename)('drizzle-orm') as typeof DrizzleOrm)[name as keyof typeof DrizzleOrm] });
