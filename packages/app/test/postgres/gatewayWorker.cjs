// A gateway in its own OS process for the two-gateway test: the BUILT facade over the
// PostgreSQL store, owning the watcher sessions named on its command line. The parent drives it
// over IPC ({ id, call, args }) and hears every wake ({ wake: watcherKey }).
'use strict';
const { createSessionStateAwareness } = require('../../dist/index.js');
const { openPostgresStore } = require('@session-state/adapters-postgres');

const [url, schema, ownedList] = process.argv.slice(2);
const owned = new Set(ownedList.split(','));
const silent = { warn: () => undefined, error: () => undefined };

async function main() {
  const store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
  const awareness = await createSessionStateAwareness({
    store,
    logger: silent,
    ownsSession: (key) => owned.has(key),
    wake: (watcherKey) => process.send({ wake: watcherKey }),
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
