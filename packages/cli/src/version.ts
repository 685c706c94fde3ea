// The tool's version, read from its package.json (one level above src/ and dist/, which hold this file).
import fs from 'node:fs';
import path from 'node:path';

import { orElse } from './orElse.js';

/** The version in the CLI's package.json, or `0.0.0` when it cannot be read. */
export function packageVersion(): string {
  const manifest = orElse(() => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version?: unknown } | null, undefined);
  return typeof manifest?.version === 'string' ? manifest.version : '0.0.0';
}
