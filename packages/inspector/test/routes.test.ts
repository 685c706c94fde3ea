// The inspector's endpoints over a memory store written through the real facade: the overview,
// a session's timeline, a pair's cursor journal, /metrics and its seam, the page's files, bad
// parameters named, only GET answered, and the event stream pushing a new overview on a change.
import { createMemoryStore } from '@session-state/adapters-memory';
import type { SessionStateAwareness } from '@session-state/app';
import { noticeText, asSequence, type StateStore } from '@session-state/domain';

import type { Overview } from '../src/overview.js';
import { startInspector, type RunningInspector } from '../src/startInspector.js';
import type { Timeline } from '../src/timeline.js';
import { getJson, manualChanges, openEventStream } from './support/serverRig.js';
import { BARE_AGENT, GLOBAL, MANAGER, OPS, RESEARCHER, writeScene } from './support/scene.js';

let store: StateStore;
let awareness: SessionStateAwareness;
let inspector: RunningInspector;
const changes = manualChanges();
const METRICS = '# HELP session_state_records_total Records.\n# TYPE session_state_records_total counter\nsession_state_records_total 3\n';

beforeAll(async () => {
  store = createMemoryStore();
  awareness = await writeScene(store);
  inspector = await startInspector({ store, changes: changes.source, label: 'memory', port: 0, metricsText: () => Promise.resolve(METRICS) });
});

afterAll(async () => {
  await inspector.close();
  await awareness.close();
});

describe('GET /api/overview', () => {
  test('has every session and cursor of the store as graph nodes and edges, pending pairs marked', async () => {
    const { status, body } = await getJson<{ label: string; version: number; overview: Overview }>(inspector.url, '/api/overview');
    expect(status).toBe(200);
    expect(body.label).toBe('memory');
    const { graph } = body.overview;
    const cursors = await store.listCursors();
    const heads = await store.readHeads();
    const keys = new Set([...heads.map((row) => row.sessionKey), ...cursors.flatMap((row) => [row.watcher, row.target])]);
    expect(graph.sessions.map((node) => node.id).sort()).toEqual([...keys].sort());
    expect(graph.sessions.map((node) => node.id)).toEqual(expect.arrayContaining([MANAGER, RESEARCHER, OPS, BARE_AGENT, GLOBAL]));
    expect(graph.edges.map((edge) => [edge.source, edge.target, edge.pending])).toEqual([
      [MANAGER, RESEARCHER, true],
      [OPS, RESEARCHER, true],
    ]);
  });

  test('lists the pending notices with the exact text the gateway would queue', async () => {
    const { body } = await getJson<{ overview: Overview }>(inspector.url, '/api/overview');
    const heads = await store.readHeads([RESEARCHER as never]);
    expect(heads[0]?.head).toBeGreaterThan(0);
    const cursors = await store.listCursors();
    expect(body.overview.notices).toEqual(
      cursors.map((row) => ({
        watcher: row.watcher,
        target: row.target,
        changesSince: row.acked,
        notified: row.notified,
        text: noticeText(RESEARCHER, asSequence(row.acked)),
      })),
    );
    expect(body.overview.counts).toMatchObject({ sessions: 3, cursors: 2, pendingPairs: 2, pendingNotices: 2 });
  });
});

describe('GET /api/timeline', () => {
  test("returns the session's events with actor rows, head and prune watermark", async () => {
    const { status, body } = await getJson<Timeline>(inspector.url, `/api/timeline?session=${encodeURIComponent(RESEARCHER)}`);
    expect(status).toBe(200);
    expect(body.events.map((event) => [event.kind, event.actor, event.kindClass])).toEqual([
      ['child_spawned', `agent ${MANAGER}`, 'seed'],
      ['goal_changed', 'human', 'notify'],
      ['run_completed', 'system', 'log'],
      ['human_direct_message', 'human', 'notify'],
    ]);
    expect(body.actors).toEqual([`agent ${MANAGER}`, 'human', 'system']);
    expect(body.head).toBe(body.events[3]?.sequence);
    expect(body).toMatchObject({ pruneWatermark: 0, historyGap: false, hasMore: false, nextSince: body.head });
  });

  test('pages by limit and since, reaching the head with no skip and no repeat', async () => {
    const first = (await getJson<Timeline>(inspector.url, `/api/timeline?session=${encodeURIComponent(RESEARCHER)}&limit=3`)).body;
    expect(first.events).toHaveLength(3);
    expect(first.hasMore).toBe(true);
    const rest = (await getJson<Timeline>(inspector.url, `/api/timeline?session=${encodeURIComponent(RESEARCHER)}&since=${first.nextSince}`)).body;
    expect(rest.events.map((event) => event.kind)).toEqual(['human_direct_message']);
    expect(rest.hasMore).toBe(false);
  });

  test.each([
    ['', 'session: required'],
    ['?session=a%20b', 'session: expected a session key'],
    [`?session=${RESEARCHER}&since=-1`, 'since: expected an integer from 0'],
    [`?session=${RESEARCHER}&limit=0`, 'limit: expected an integer from 1 to 1000'],
    [`?session=${RESEARCHER}&limit=1001`, 'limit: expected an integer from 1 to 1000'],
  ])('refuses %s with a 400 naming the parameter', async (query, message) => {
    const { status, body } = await getJson<{ error: string }>(inspector.url, `/api/timeline${query}`);
    expect(status).toBe(400);
    expect(body.error).toContain(message);
  });
});

describe('GET /api/pair', () => {
  test("explains the pair from the store's cursor journal", async () => {
    const { status, body } = await getJson<{ status: string; steps: { event: { type: string } }[] }>(
      inspector.url,
      `/api/pair?watcher=${encodeURIComponent(MANAGER)}&target=${encodeURIComponent(RESEARCHER)}`,
    );
    expect(status).toBe(200);
    expect(body.status).toBe('watching');
    expect(body.steps.map((step) => step.event.type)).toEqual(['watch_started', 'notice_raised']);
  });

  test('names a missing target', async () => {
    const { status, body } = await getJson<{ error: string }>(inspector.url, `/api/pair?watcher=${MANAGER}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/^target: required/u);
  });
});

describe('the rest of the routes', () => {
  test('/metrics serves the wired registry as Prometheus text', async () => {
    const response = await fetch(new URL('/metrics', inspector.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toBe(METRICS);
  });

  test('/metrics without a registry says so with a 404', async () => {
    const bare = await startInspector({ store, changes: manualChanges().source, label: 'memory', port: 0 });
    try {
      const response = await fetch(new URL('/metrics', bare.url));
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('metricsText');
    } finally {
      await bare.close();
    }
  });

  test('serves the page and the cytoscape bundle it loads from the package, no CDN', async () => {
    const page = await (await fetch(inspector.url)).text();
    expect(page).toContain('<script src="/vendor/cytoscape.min.js"></script>');
    expect(page).not.toMatch(/https?:\/\//u);
    const bundle = await fetch(new URL('/vendor/cytoscape.min.js', inspector.url));
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toContain('cytoscape');
  });

  test('answers nothing but GET: a POST is a 404 and changes nothing', async () => {
    const before = JSON.stringify([await store.readHeads(), await store.listCursors(), await store.readCursorJournal()]);
    for (const path of ['/api/overview', '/api/timeline', '/api/pair', '/api/events', '/metrics']) {
      const response = await fetch(new URL(path, inspector.url), { method: 'POST', body: '{}' });
      expect(response.status).toBe(404);
    }
    expect(JSON.stringify([await store.readHeads(), await store.listCursors(), await store.readCursorJournal()])).toBe(before);
  });
});

describe('GET /api/events', () => {
  test('sends the overview on connect, then a new version when a change shows a different store', async () => {
    const stream = await openEventStream(inspector.url);
    try {
      const first = await stream.next();
      const edges = first.overview.graph.edges;
      expect(edges.every((edge) => edge.pending)).toBe(true);

      // The manager drains: it acknowledges up to the frozen watermark and, since the human message
      // came after it, one notice reopens. The change source reports it; a new version follows.
      const [managerBefore, opsBefore] = edges;
      await awareness.drain(MANAGER);
      changes.fire();
      const second = await stream.next();
      expect(second.version).toBe(first.version + 1);
      const [managerAfter, opsAfter] = second.overview.graph.edges;
      expect(managerAfter).toMatchObject({ source: MANAGER, acked: managerBefore?.notified, notified: managerBefore?.material, pending: true });
      expect(opsAfter).toEqual(opsBefore);
    } finally {
      stream.close();
    }
  });
});
