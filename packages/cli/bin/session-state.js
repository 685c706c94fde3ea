#!/usr/bin/env node
// The `session-state` bin. It is committed, not built, so npm links it at install time, before
// `npm run build` has made dist/ in a clone of the repository; it loads the built tool and runs
// it on this process. When the build is missing it says so, with the command that fixes it,
// instead of Node's "Cannot find module".
import { readFileSync } from 'node:fs';
import module from 'node:module';

const NOT_BUILT = 'session-state is not built yet: run `npm run build` first';
const BUILT_MAIN = new URL('../dist/main.js', import.meta.url).href;

/** True when `error` is Node failing to find a built file (its own dist/, or a workspace package's). */
function isMissingBuild(error) {
  return error !== null && typeof error === 'object' && error.code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]/.test(String(error.message));
}

// Node keeps the compiled code of the tool's modules on disk (in the OS temp directory), so later
// runs skip compiling them; Node's documentation advises CLI tools to do this.
module.enableCompileCache?.();

// `--version` alone needs only the manifest: it answers without loading the tool.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  let tool;
  try {
    tool = await import(BUILT_MAIN);
  } catch (error) {
    if (!isMissingBuild(error)) throw error;
    process.stderr.write(`${NOT_BUILT}\n`);
    process.exit(1);
  }
  tool.runOnProcess();
}
