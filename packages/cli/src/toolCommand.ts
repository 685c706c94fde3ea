// This tool's own package: its version, and how to run it again from a working directory, for the
// commands that hints and the demo's closing lines name: `npx session-state` where npx finds this
// very bin (a project that installed @session-state/cli, or this repository after `npm install`),
// and otherwise `node <the bin's path from there>`, which works wherever the tool was run from.
import fs from 'node:fs';
import path from 'node:path';

import { orElse } from './orElse.js';

/** The package folder: src/ and dist/ are both one level below it. */
const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
/** The committed launcher. */
const BIN = path.join(PACKAGE_DIR, 'bin', 'session-state.js');

/** The version in the CLI's package.json, or `0.0.0` when it cannot be read. */
export function packageVersion(): string {
  const manifest = orElse(() => JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version?: unknown } | null, undefined);
  return typeof manifest?.version === 'string' ? manifest.version : '0.0.0';
}

const realPath = (file: string): string | undefined => orElse(() => fs.realpathSync(file), undefined);

/**
 * The command that runs this tool from `cwd`: npx looks for `node_modules/.bin/session-state` in
 * `cwd` and each folder above it, and runs the first it finds; that is `npx session-state` when
 * the first one found is this bin, and the bin's path otherwise (none found, or another copy).
 *
 * @example toolCommand(process.cwd()) // 'npx session-state' in a project that installed the CLI
 */
export function toolCommand(cwd: string): string {
  const bin = realPath(BIN) ?? BIN;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const linked = path.join(dir, 'node_modules', '.bin', 'session-state');
    if (fs.existsSync(linked)) {
      if (realPath(linked) === bin) return 'npx session-state';
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  const relative = path.relative(cwd, BIN);
  return `node ${relative.includes(' ') ? JSON.stringify(relative) : relative}`;
}
