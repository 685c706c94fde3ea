// Another process on the gateway's SQLite file, for sqliteSignals.test.ts: the BUILT facade as the
// CLI and the MCP server open it (no restart scan, no prune, no ownsSession), so it never listens
// itself. The parent drives it over IPC ({ id, call, args }) and hears { id, result } or { id, error }.
'use strict';
const { createSessionStateAwareness } = require('../../dist/index.js');
const { openSqliteStore } = require('@session-state/adapters-sqlite');

const [path, driver] = process.argv.slice(2);
const silent = { warn: () => undefined, error: () => undefined };

async function main() {
  const awareness = await createSessionStateAwareness({
    store: openSqliteStore({ path, driver }),
    logger: silent,
    startup: { restartScan: false, prune: 'off' },
  });
  process.on('message', async ({ id, call, args }) => {
    try {
      const result = await awareness[call](...args);
      process.send({ id, result: result === undefined ? null : result });
      if (call === 'close') process.disconnect();
    } catch (error) {
      process.send({ id, error: String(error && error.message) });
    }
  });
  process.send({ ready: true });
}

main().catch((error) => {
  process.send({ failed: String(error && error.stack) });
  process.exitCode = 1;
});
