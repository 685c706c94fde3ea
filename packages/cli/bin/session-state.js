#!/usr/bin/env node
// The `session-state` bin. It is committed, not built, so npm links it at install time, before
// `npm run build` has made dist/ in a clone of the repository; it loads the built tool and runs
// it on this process. When the build is missing it says so, with the command that fixes it,
// instead of Node's "Cannot find module".
const NOT_BUILT = 'session-state is not built yet: run `npm run build` first';
const BUILT_MAIN = new URL('../dist/main.js', import.meta.url).href;

/** True when `error` is Node failing to find a built file (its own dist/, or a workspace package's). */
function isMissingBuild(error) {
  return error !== null && typeof error === 'object' && error.code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]/.test(String(error.message));
}

let tool;
try {
  tool = await import(BUILT_MAIN);
} catch (error) {
  if (!isMissingBuild(error)) throw error;
  process.stderr.write(`${NOT_BUILT}\n`);
  process.exit(1);
}
tool.runOnProcess();
