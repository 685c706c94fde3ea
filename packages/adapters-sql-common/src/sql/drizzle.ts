// drizzle-orm loaded as CommonJS, for cold starts (docs/decisions/drizzle-as-commonjs.md); under
// drizzle-kit's CommonJS loader import.meta has no url.
import { createRequire } from 'node:module';

import type * as DrizzleOrm from 'drizzle-orm';

const load = createRequire(import.meta.url ?? __filename);

export const orm = load('drizzle-orm') as typeof DrizzleOrm;
