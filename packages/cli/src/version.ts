// The tool's version, read from its package.json (one level above src/ and dist/, which hold this file).
import fs from 'node:fs';
import path from 'node:path';

/** The version in the CLI's package.json, or `0.0.0` when it cannot be read. */
export function packageVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
