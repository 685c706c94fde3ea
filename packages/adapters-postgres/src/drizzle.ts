// drizzle-orm loaded through require, as CommonJS, for cold starts (docs/decisions/drizzle-as-commonjs.md); under drizzle-kit's loader import.meta has no url.
import { createRequire } from 'node:module';

import type * as DrizzleOrm from 'drizzle-orm';
import type * as PgCore from 'drizzle-orm/pg-core';

const load = createRequire(import.meta.url ?? __filename);

export const orm = load('drizzle-orm') as typeof DrizzleOrm;
export const pgCore = load('drizzle-orm/pg-core') as typeof PgCore;
