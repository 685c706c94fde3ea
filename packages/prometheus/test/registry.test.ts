// The registry a gateway gets: merged into its own with Registry.merge, or registered straight
// into it; read before a facade is tracked; and the pending-pairs count without the store's own count.
import { createMemoryStore } from '@session-state/adapters-memory';
import { createSessionStateAwareness } from '@session-state/app';
import type { Logger, StateStore } from '@session-state/domain';
import { Counter, Registry } from 'prom-client';

import { COUNTER_NAMES, countPendingPairs, createSessionStateMetrics } from '../src/index.js';
import { histogramOf, parseExposition, valueOf } from './support/exposition.js';

const quiet: Logger = { warn: () => undefined, error: () => undefined };
const noStartupWork = { restartScan: false, prune: 'off' } as const;

function gatewayRegistry(): Registry {
  const registry = new Registry();
  new Counter({ name: 'gateway_requests_total', help: 'Requests the gateway served.', registers: [registry] }).inc(7);
  return registry;
}

describe('the registry a gateway serves', () => {
  test('Registry.merge puts session-state’s metrics beside the gateway’s own in one /metrics text', async () => {
    const store = createMemoryStore();
    const metrics = createSessionStateMetrics({ store });
    const awareness = await createSessionStateAwareness({ store, logger: quiet, observer: metrics.observer, startup: noStartupWork });
    metrics.track(awareness);
    await awareness.record({ sessionKey: 'agent:a:main', kind: 'human_direct_message', actorType: 'human', summary: 'hello' });

    const merged = Registry.merge([gatewayRegistry(), metrics.registry]);
    const families = parseExposition(await merged.metrics());
    expect(valueOf(families, 'gateway_requests_total')).toBe(7);
    expect(valueOf(families, 'session_state_events_appended_total')).toBe(1);
    expect(families.get('session_state_append_batch_duration_seconds')?.type).toBe('histogram');
    expect(merged.contentType).toBe(metrics.registry.contentType);
    await awareness.close();
  });

  test('options.registry registers straight into the gateway’s registry', async () => {
    const registry = gatewayRegistry();
    const store = createMemoryStore();
    const metrics = createSessionStateMetrics({ registry, store });
    expect(metrics.registry).toBe(registry);
    const awareness = await createSessionStateAwareness({ store, logger: quiet, observer: metrics.observer, startup: noStartupWork });
    metrics.track(awareness);
    await awareness.record({ sessionKey: 'agent:a:main', kind: 'human_direct_message', actorType: 'human', summary: 'hello' });
    const families = parseExposition(await registry.metrics());
    expect(valueOf(families, 'gateway_requests_total')).toBe(7);
    expect(valueOf(families, 'session_state_events_appended_total')).toBe(1);
    await awareness.close();
  });

  test('before track() every counter and the queue depth read 0; without a store there is no pending_pairs gauge', async () => {
    const families = parseExposition(await createSessionStateMetrics().registry.metrics());
    for (const { name } of Object.values(COUNTER_NAMES)) expect([name, valueOf(families, name)]).toEqual([name, 0]);
    expect(valueOf(families, 'session_state_notice_queue_depth')).toBe(0);
    expect(families.has('session_state_pending_pairs')).toBe(false);
  });
});

describe('histogram buckets', () => {
  test('appendBatchBuckets and pruneBuckets replace the default upper bounds (+Inf is always last)', async () => {
    const metrics = createSessionStateMetrics({ appendBatchBuckets: [0.001, 0.1], pruneBuckets: [1] });
    metrics.observer.appendBatch?.({ appends: 1, durationSeconds: 0.05, failed: false });
    metrics.observer.pruneRun?.({ durationSeconds: 2, eventsDeleted: 0, cursorsExpired: 0 });
    const families = parseExposition(await metrics.registry.metrics());
    expect(histogramOf(families, 'session_state_append_batch_duration_seconds').buckets).toEqual([[0.001, 0], [0.1, 1], [Number.POSITIVE_INFINITY, 1]]);
    expect(histogramOf(families, 'session_state_prune_duration_seconds').buckets).toEqual([[1, 0], [Number.POSITIVE_INFINITY, 1]]);
  });
});

describe('countPendingPairs', () => {
  test('a store that is no OverviewSource is counted from listCursors (pending cursors only, not idle ones), with the same answer as the overview counts', async () => {
    const store = createMemoryStore();
    const awareness = await createSessionStateAwareness({ store, logger: quiet, startup: noStartupWork });
    await awareness.childSpawned({ parentKey: 'agent:a:main', childKey: 'agent:a:subagent:x' });
    await awareness.childSpawned({ parentKey: 'agent:a:main', childKey: 'agent:a:subagent:y' });
    await awareness.childSpawned({ parentKey: 'agent:a:main', childKey: 'agent:a:subagent:z' });
    await awareness.record({ sessionKey: 'agent:a:subagent:x', kind: 'human_direct_message', actorType: 'human', summary: 'hello' });
    const listOnly: Pick<StateStore, 'listCursors'> = { listCursors: (filter) => store.listCursors(filter) };
    expect(await countPendingPairs(listOnly)).toBe(1);
    expect(await countPendingPairs(store)).toBe(1);
    await awareness.close();
  });
});
