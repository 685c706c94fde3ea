// `require` resolved from this package: each driver is loaded only when chosen, and the worker loads the same one by path.
import { createRequire } from 'node:module';

export const requireDriver = createRequire(import.meta.url);
