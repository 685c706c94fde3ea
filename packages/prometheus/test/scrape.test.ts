// A scrape, parsed as Prometheus parses it, after records, drains and prunes on the memory and
// SQLite stores: every family is named and typed as the conventions want, and each value is the
// facade's or the store's own.
import { createManualClock, type ManualClock } from '@session-state/adapters-memory';
import { createSessionStateAwareness, type AwarenessMetrics, type SessionStateAwareness } from '@session-state/app';
import type { Logger } from '@session-state/domain';
import { storeMatrix, type StoreHarness, type StoreKind } from '@session-state/testkit';

import { COUNTER_NAMES, createSessionStateMetrics, type SessionStateMetrics } from '../src/index.js';
import { histogramOf, parseExposition, valueOf, type Family } from './support/exposition.js';

const PARENT = 'agent:main:main';
const CHILD = 'agent:main:subagent:child-7';
const OTHER_CHILD = 'agent:main:subagent:child-8';
const humanTurn = (sessionKey: string) => ({ sessionKey, kind: 'human_direct_message' as const, actorType: 'human' as const, summary: 'human message via telegram' });
const quiet: Logger = { warn: () => undefined, error: () => undefined };

interface Setup {
  readonly stores: StoreHarness;
  readonly clock: ManualClock;
  readonly metrics: SessionStateMetrics;
  readonly awareness: SessionStateAwareness;
}

async function setUp(kind: StoreKind): Promise<Setup> {
  const stores = await kind.open();
  const clock = createManualClock(Date.UTC(2026, 10, 29, 10, 0, 0));
  const metrics = createSessionStateMetrics({ store: stores.store });
  const awareness = await createSessionStateAwareness({ store: stores.store, clock, logger: quiet, observer: metrics.observer, retention: { maxAgeMs: 1000 } });
  metrics.track(awareness);
  return { stores, clock, metrics, awareness };
}

const scrape = async (metrics: SessionStateMetrics): Promise<Map<string, Family>> => parseExposition(await metrics.registry.metrics());

/** Every counter of the scrape equals the facade's own. */
function expectCountersOf(families: Map<string, Family>, counters: AwarenessMetrics): void {
  for (const key of Object.keys(COUNTER_NAMES) as (keyof AwarenessMetrics)[]) {
    expect([key, valueOf(families, COUNTER_NAMES[key].name)]).toEqual([key, counters[key]]);
  }
}

describe.each(storeMatrix)('the Prometheus scrape on the %s store', (_name, kind: StoreKind) => {
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.awareness.close();
    await setup?.stores.cleanup();
    setup = undefined;
  });

  test('every family has HELP and TYPE, the session_state_ prefix, _total on counters and _seconds on histograms', async () => {
    setup = await setUp(kind);
    await setup.awareness.record(humanTurn(CHILD));
    const families = await scrape(setup.metrics);
    expect(families.size).toBe(Object.keys(COUNTER_NAMES).length + 4);
    for (const family of families.values()) {
      expect(family.name).toMatch(/^session_state_[a-z_]+$/);
      expect(family.help?.length).toBeGreaterThan(10);
      if (family.type === 'counter') expect(family.name).toMatch(/_total$/);
      else if (family.type === 'histogram') expect(family.name).toMatch(/_seconds$/);
      else expect([family.name, family.type]).toEqual([family.name, 'gauge']);
    }
  });

  test('after records, a drain and a prune the scrape holds the facade’s counters, its queue depth, the store’s pending pairs and both histograms', async () => {
    setup = await setUp(kind);
    const { awareness, clock, metrics } = setup;
    await awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    await Promise.all([awareness.record(humanTurn(CHILD)), awareness.record(humanTurn(OTHER_CHILD)), awareness.record(humanTurn(CHILD))]);

    let families = await scrape(metrics);
    expectCountersOf(families, awareness.metrics());
    expect(valueOf(families, 'session_state_notice_queue_depth')).toBe(2);
    expect(valueOf(families, 'session_state_pending_pairs')).toBe(2);
    const appends = histogramOf(families, 'session_state_append_batch_duration_seconds');
    expect(appends.count).toBeGreaterThanOrEqual(3); // two spawns, then one or more batches of records
    expect(appends.sum).toBeGreaterThanOrEqual(0);
    expect(appends.buckets.at(-1)).toEqual([Number.POSITIVE_INFINITY, appends.count]);
    for (let i = 1; i < appends.buckets.length; i += 1) expect((appends.buckets[i] as [number, number])[1]).toBeGreaterThanOrEqual((appends.buckets[i - 1] as [number, number])[1]);

    // The drain reopens CHILD (it changed twice): one notice and one pending pair are left.
    await awareness.drain(PARENT);
    families = await scrape(metrics);
    expect(valueOf(families, 'session_state_notice_queue_depth')).toBe(1);
    expect(valueOf(families, 'session_state_pending_pairs')).toBe(1);
    expect(valueOf(families, 'session_state_notices_reopened_total')).toBe(1);

    const prunesBefore = histogramOf(families, 'session_state_prune_duration_seconds').count;
    clock.advance(5000);
    const totals = await awareness.prune();
    families = await scrape(metrics);
    expectCountersOf(families, awareness.metrics());
    expect(valueOf(families, 'session_state_events_pruned_total')).toBe(totals.eventsDeleted);
    expect(totals.eventsDeleted).toBe(5);
    expect(histogramOf(families, 'session_state_prune_duration_seconds').count).toBe(prunesBefore + 1);
    // The expired cursors took their notices and their pending state with them.
    expect(valueOf(families, 'session_state_notice_queue_depth')).toBe(0);
    expect(valueOf(families, 'session_state_pending_pairs')).toBe(0);
  });

  test('a counter moves between two scrapes by exactly what happened', async () => {
    setup = await setUp(kind);
    await setup.awareness.sent({ senderKey: PARENT, deliveredTo: CHILD, watch: true });
    const before = await scrape(setup.metrics);
    await setup.awareness.record(humanTurn(CHILD));
    const after = await scrape(setup.metrics);
    expect(valueOf(after, 'session_state_events_appended_total') - valueOf(before, 'session_state_events_appended_total')).toBe(1);
    expect(valueOf(after, 'session_state_notices_queued_total') - valueOf(before, 'session_state_notices_queued_total')).toBe(1);
    expect(valueOf(after, 'session_state_append_failures_total')).toBe(valueOf(before, 'session_state_append_failures_total'));
  });

  test('a store that cannot be read makes pending_pairs NaN, and the rest of the scrape still answers', async () => {
    setup = await setUp(kind);
    await setup.awareness.record(humanTurn(CHILD));
    await setup.awareness.close(); // closes the store
    const families = await scrape(setup.metrics);
    expect(valueOf(families, 'session_state_pending_pairs')).toBeNaN();
    expect(valueOf(families, 'session_state_events_appended_total')).toBe(1);
  });
});
