// A child process for the multi-process test: opens the BUILT store on a shared file, waits for
// the parent's "go", appends its share of events (single requests and small batches, some with
// dedupe keys every worker uses) and reports every outcome to the parent over IPC.
'use strict';
const { openSqliteStore } = require('../../dist/index.js');

const [path, workerId, countText, sharedKey, ...ownKeys] = process.argv.slice(2);
const count = Number(countText);
const actor = `agent:worker-${workerId}:main`;

function command(sessionKey, i, dedupeKey) {
  const payload = { worker: Number(workerId), i };
  return {
    sessionKey,
    kind: 'goal_changed',
    actorType: 'agent',
    actorSessionKey: actor,
    summary: `worker ${workerId} change ${i}`,
    // A command built by hand carries its payload's JSON text, as decodeRecordInput gives it.
    payload,
    payloadJson: JSON.stringify(payload),
    ...(dedupeKey !== undefined ? { dedupeKey } : {}),
    onlyIfWatched: false,
  };
}

async function run() {
  const store = openSqliteStore({ path, busyTimeoutMs: 20000 });
  const outcomes = [];
  let i = 0;
  while (i < count) {
    // Batches of 1 to 3 requests, alternating between the shared session and this worker's own.
    const size = 1 + (i % 3);
    const batch = [];
    for (let j = 0; j < size && i < count; j += 1, i += 1) {
      const sessionKey = i % 2 === 0 ? sharedKey : ownKeys[i % ownKeys.length];
      // Every 25th event carries a dedupe key that all workers use: exactly one may win it.
      const dedupeKey = i % 25 === 0 ? `shared-dedupe:${i}` : undefined;
      batch.push({ command: command(sessionKey, i, dedupeKey), appendedAt: Date.now() });
    }
    const results = await store.append(batch);
    results.forEach((outcome, k) => {
      const req = batch[k];
      outcomes.push({
        type: outcome.type,
        sessionKey: req.command.sessionKey,
        dedupeKey: req.command.dedupeKey,
        sequence: outcome.type === 'appended' || outcome.type === 'duplicate' ? outcome.event.sequence : undefined,
        error: outcome.type === 'failed' ? outcome.error.message : undefined,
      });
    });
  }
  await store.close();
  return outcomes;
}

process.once('message', (message) => {
  if (message !== 'go') return;
  run().then(
    (outcomes) => process.send({ ok: true, outcomes }, () => process.exit(0)),
    (error) => process.send({ ok: false, error: String(error && error.message ? error.message : error) }, () => process.exit(1)),
  );
});
process.send({ ready: true });
