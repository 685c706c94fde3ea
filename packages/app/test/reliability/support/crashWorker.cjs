// A child process for the crash battery: opens the facade of the BUILT packages over a SQLite
// file and drives a seeded random workload (bursts of records, spawns, watches, drains, resets,
// deletes, prunes) until the parent kills it with SIGKILL. Every record the facade confirmed is
// reported over IPC, so the parent can demand that it survived the crash.
'use strict';
const { createSessionStateAwareness } = require('../../../dist/index.js');
const { openSqliteStore } = require('@session-state/adapters-sqlite');

const [path, seedText, roundText] = process.argv.slice(2);
const round = Number(roundText);

/** mulberry32: a small seeded PRNG, so a round's workload is reproducible from its seed. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(Number(seedText));
const pick = (list) => list[Math.floor(random() * list.length)];

const KEYS = ['agent:a:main', 'agent:b:main', 'agent:c:main', 'agent:a:subagent:s1', 'agent:b:subagent:s2', 'global'];
const KINDS = ['human_direct_message', 'goal_changed', 'upstream_missing', 'run_completed', 'compacted'];
const silent = { warn: () => undefined, error: () => undefined };

let counter = 0;
function recordInput() {
  const kind = pick(KINDS);
  const actor = random() < 0.4 ? 'human' : 'agent';
  counter += 1;
  return {
    sessionKey: pick(KEYS),
    kind,
    actorType: actor,
    ...(actor === 'agent' ? { actorSessionKey: pick(KEYS) } : {}),
    // A unique id per record, so the parent can tell a repeated sequence from the same event.
    summary: `r${round}-${counter}`,
    ...(random() < 0.1 ? { dedupeKey: `dedupe-${Math.floor(random() * 50)}` } : {}),
  };
}

async function main() {
  const awareness = await createSessionStateAwareness({
    store: openSqliteStore({ path, busyTimeoutMs: 10000 }),
    logger: silent,
    retention: { maxRows: 400 },
  });
  process.send({ t: 'ready' });
  for (;;) {
    // Let IPC flush and timers run between operations, as a gateway's event loop would.
    await new Promise((resolve) => setImmediate(resolve));
    const r = random();
    if (r < 0.55) {
      // A burst of records submitted together: they share a group-commit batch.
      const burst = Array.from({ length: 1 + Math.floor(random() * 20) }, recordInput);
      const results = await Promise.all(burst.map((input) => awareness.record(input)));
      results.forEach((result, i) => {
        if (result.ok && result.event !== undefined && result.event.summary === burst[i].summary) {
          process.send({ t: 'ack', sessionKey: result.event.sessionKey, sequence: result.event.sequence, id: burst[i].summary });
        }
      });
    } else if (r < 0.65) {
      await awareness.childSpawned({ parentKey: pick(KEYS), childKey: pick(KEYS) });
    } else if (r < 0.75) {
      await awareness.sent({ senderKey: pick(KEYS), deliveredTo: pick(KEYS), watch: true });
    } else if (r < 0.92) {
      await awareness.drain(pick(KEYS));
    } else if (r < 0.95) {
      await awareness.sessionReset(pick(KEYS));
    } else if (r < 0.97) {
      await awareness.sessionDeleted(pick(KEYS));
    } else {
      await awareness.prune();
    }
  }
}

main().catch((error) => {
  process.send({ t: 'error', message: String(error && error.stack ? error.stack : error) });
  process.exit(1);
});
