// The inspector's HTTP routes (hono): the page and its files, the JSON endpoints, the event stream
// that pushes each new overview, and /metrics. Read-only by construction: only GET routes exist,
// and every handler reads through the store port's read methods.
import { explainPair, failureMessage } from '@session-state/domain';
import { Hono } from 'hono';

import { eventStreams } from './eventStream.js';
import { hostGuard } from './hostCheck.js';
import type { LiveOverview } from './liveOverview.js';
import { BadParameterError, integerParam, sessionKeyParam } from './queryParams.js';
import type { InspectorOptions } from './startInspector.js';
import type { StaticAsset } from './staticAssets.js';
import { readTimeline, TIMELINE_MAX_EVENTS } from './timeline.js';

/** What the routes read from: the caller's store, label and metrics text, and what startInspector made of them. */
export interface InspectorAppDeps extends Pick<InspectorOptions, 'store' | 'label' | 'metricsText'> {
  readonly live: LiveOverview;
  readonly assets: ReadonlyMap<string, StaticAsset>;
  /** The Host header values to answer (the names of the listening address); anything else is refused. */
  readonly allowedHosts: () => ReadonlySet<string>;
}

/** Builds the routes; `endStreams` ends the open event streams (the server waits for them when closing), `streamBacklog` tells what each holds now. */
export function createInspectorApp(deps: InspectorAppDeps) {
  const { store, live, assets } = deps;
  const app = new Hono();
  const streams = eventStreams(live);

  // Before every route: a request naming another host (DNS rebinding) reads nothing.
  app.use(hostGuard(deps.allowedHosts));

  // A bad parameter is the caller's mistake (400, naming it); anything else is the store's (500).
  app.onError((error, c) => {
    if (error instanceof BadParameterError) return c.json({ error: error.message }, 400);
    return c.json({ error: `the store could not be read: ${failureMessage(error)}` }, 500);
  });
  app.notFound((c) => c.json({ error: `no such page: ${c.req.method} ${c.req.path} (the inspector only reads: GET routes)` }, 404));

  for (const [route, asset] of assets) {
    app.get(route, (c) => c.body(asset.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': asset.contentType, 'cache-control': 'no-cache' }));
  }

  // Browsers ask for it unprompted; the page has none.
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/api/health', (c) => c.text('ok\n'));
  app.get('/api/overview', async (c) => c.json({ label: deps.label, ...(await live.current()).update }));
  app.get('/api/events', streams.handler);

  app.get('/api/timeline', async (c) => {
    const session = sessionKeyParam('session', c.req.query('session'));
    const since = integerParam('since', c.req.query('since'), 0, 0, Number.MAX_SAFE_INTEGER);
    const limit = integerParam('limit', c.req.query('limit'), 500, 1, TIMELINE_MAX_EVENTS);
    return c.json(await readTimeline(store, session, since, limit));
  });

  app.get('/api/pair', async (c) => {
    const pair = { watcher: sessionKeyParam('watcher', c.req.query('watcher')), target: sessionKeyParam('target', c.req.query('target')) };
    return c.json(explainPair(await store.readCursorJournal(pair), pair));
  });

  app.get('/metrics', async (c) => {
    if (deps.metricsText === undefined) return c.text('no metrics registry is wired into this inspector (startInspector: metricsText)\n', 404);
    return c.body(await deps.metricsText(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  });

  return { app, endStreams: streams.endAll, streamBacklog: streams.backlog };
}
