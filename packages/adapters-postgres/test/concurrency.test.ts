// Several gateways (store instances with their own pools) writing one schema at once: sequences
// stay unique, a session's events are never committed below a head a reader already saw, dedupe
// holds across gateways, and lock-order conflicts between batches and drains are retried, never
// surfaced.
import type { AppendOutcome, SessionKey, StateStore, StoredEvent } from '@session-state/domain';
import { dropSchema, pgUrl, uniqueSchema } from '@session-state/testkit';

import { openPostgresStore } from '../src/index.js';
import { humanTurn, key, request } from './support/commands.js';

jest.setTimeout(120_000);

const GATEWAYS = 3;
const ROUNDS = Number(process.env['PG_CONCURRENCY_ROUNDS'] ?? '') || 20;
const W = key('agent:w:main');
const TARGETS = [key('agent:t1:main'), key('agent:t2:main'), key('agent:t3:main')];

let schema: string;
let stores: StateStore[];

beforeEach(async () => {
  schema = uniqueSchema('conc');
  stores = [];
  // Opened one after another so the migration runs once; concurrent opens are tested in migrations.test.ts.
  for (let i = 0; i < GATEWAYS; i += 1) stores.push(await openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 4 }));
});

afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await dropSchema(schema);
});

/** A deterministic shuffle, so a failure repeats. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function appendedEvents(outcomes: readonly AppendOutcome[]): StoredEvent[] {
  return outcomes.flatMap((o) => {
    if (o.type === 'failed') throw new Error(`an append failed: ${o.error.message}`);
    return o.type === 'appended' ? [o.event] : [];
  });
}

test('concurrent gateways: unique sequences, no event committed below a head a reader saw, drains and batches never deadlock into a failure', async () => {
  for (const target of TARGETS) await stores[0]?.watch({ watcher: W, target, now: 1 });

  let writing = true;
  const violations: string[] = [];

  // A reader per target: once it saw head h, no event at or below h may appear later.
  const readers = TARGETS.map(async (target) => {
    const store = stores[1] as StateStore;
    let seenHead = 0;
    const seenAtOrBelow = new Set<number>();
    while (writing) {
      const page = await store.readChanges(target, 0 as never, 200);
      for (const event of page.events) {
        if (event.sequence <= seenHead && !seenAtOrBelow.has(event.sequence)) {
          violations.push(`${target}: event ${event.sequence} appeared after head ${seenHead} was read`);
        }
      }
      if (page.head.head > seenHead) {
        seenHead = page.head.head;
        for (const event of page.events) if (event.sequence <= seenHead) seenAtOrBelow.add(event.sequence);
      }
    }
  });

  // The watcher drains whatever its cursors hold, against the appends moving them.
  const drainer = (async () => {
    const store = stores[2] as StateStore;
    let drains = 0;
    while (writing) {
      const cursors = await store.listCursors({ watcher: W });
      const acks = cursors.filter((c) => c.notified > c.acked).map((c) => ({ target: c.target, notified: c.notified }));
      if (acks.length > 0) {
        await store.drain({ watcher: W, acks: shuffled(acks, drains), now: drains });
        drains += 1;
      } else {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return drains;
  })();

  // Each gateway appends single events and multi-session batches in shuffled target orders.
  const writers = stores.map(async (store, g) => {
    const events: StoredEvent[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = shuffled(TARGETS, g * 1000 + round);
      const batch = order.map((target, i) => request(humanTurn(target, { summary: `g${g} r${round} #${i}` })));
      const single = request(humanTurn(order[0] as SessionKey, { summary: `g${g} r${round} single` }));
      const [a, b] = await Promise.all([store.append(batch), store.append([single])]);
      events.push(...appendedEvents(a), ...appendedEvents(b));
    }
    return events;
  });

  const written = (await Promise.all(writers)).flat();
  writing = false;
  await Promise.all(readers);
  const drains = await drainer;

  expect(violations).toEqual([]);
  expect(written).toHaveLength(GATEWAYS * ROUNDS * (TARGETS.length + 1));
  const sequences = written.map((e) => e.sequence);
  expect(new Set(sequences).size).toBe(sequences.length);
  expect(drains).toBeGreaterThan(0);

  const store = stores[0] as StateStore;
  const heads = await store.readHeads(TARGETS);
  for (const target of TARGETS) {
    const mine = written.filter((e) => e.sessionKey === target).map((e) => e.sequence).sort((x, y) => x - y);
    const page = await store.readChanges(target, 0 as never, 200);
    expect(page.events.map((e) => e.sequence)).toEqual(mine);
    expect(heads.find((h) => h.sessionKey === target)?.head).toBe(mine[mine.length - 1]);
    const [cursor] = await store.listCursors({ watcher: W, target });
    // Every event was a foreign notifying one, so the cursor's material is the head.
    expect(cursor?.material).toBe(mine[mine.length - 1]);
    expect(cursor!.acked <= cursor!.notified && cursor!.notified <= cursor!.material).toBe(true);
  }
});

test('the same dedupe key appended by every gateway at once is stored once and every caller gets that event', async () => {
  const target = TARGETS[0] as SessionKey;
  const attempts = stores.flatMap((store, g) =>
    [0, 1, 2, 3].map((i) =>
      // Alone, and inside a batch beside another request, so both the single and the savepoint paths race.
      i % 2 === 0
        ? store.append([request(humanTurn(target, { dedupeKey: 'turn-1', summary: `g${g}` }))])
        : store.append([request(humanTurn(TARGETS[1] as SessionKey)), request(humanTurn(target, { dedupeKey: 'turn-1', summary: `g${g}` }))]),
    ),
  );
  const outcomes = (await Promise.all(attempts)).map((batch) => batch[batch.length - 1] as AppendOutcome);
  const sequences = outcomes.map((o) => {
    if (o.type !== 'appended' && o.type !== 'duplicate') throw new Error(`unexpected outcome ${o.type}`);
    return o.event.sequence;
  });
  expect(new Set(sequences).size).toBe(1);
  expect(outcomes.filter((o) => o.type === 'appended')).toHaveLength(1);
  const page = await (stores[0] as StateStore).readChanges(target, 0 as never, 200);
  expect(page.events.filter((e) => /^g\d+$/.test(e.summary))).toHaveLength(1);
  // The head is the stored event's sequence: no lost race left a head without its event.
  expect(page.head.head).toBe(page.events[page.events.length - 1]?.sequence);
});
