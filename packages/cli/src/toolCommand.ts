// How to run this tool again from a working directory, for the commands that hints and the
// demo's closing lines name: `npx session-state` where npx finds this very bin (a project that
// installed @session-state/cli, or this repository after `npm install`), and otherwise
// `node <the bin's path from there>`, which works wherever the tool was run from.
import fs from 'node:fs';
import path from 'node:path';

import { orElse } from './orElse.js';

/** The committed launcher; src/ and dist/ are both one level below the package folder. */
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'session-state.js');

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
