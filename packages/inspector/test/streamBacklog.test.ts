// A client that opens the event stream and stops reading (a suspended laptop, a stuck proxy)
// while the store keeps changing: what the server holds for that stream stays bounded (one frame
// in flight, one waiting, the socket's buffer), and once the client reads again it catches up
// with the latest overview instead of every version in between.
import type { AddressInfo } from 'node:net';
import net from 'node:net';

import { createAdaptorServer } from '@hono/node-server';
import { createMemoryStore } from '@session-state/adapters-memory';
import type { SessionKey, StateStore } from '@session-state/domain';

import { createInspectorApp } from '../src/app.js';
import { startLiveOverview } from '../src/liveOverview.js';
import { manualChanges } from './support/serverRig.js';

const PAIRS = 250;
const CHANGES = 120;

/** Long keys, so each overview frame is large (hundreds of kilobytes) and fills socket buffers fast. */
const key = (role: string, i: number): SessionKey => `agent:${role}${i}:${role.repeat(450)}` as SessionKey;

async function appendTo(store: StateStore, target: SessionKey, now: number): Promise<void> {
  await store.append([{ command: { sessionKey: target, kind: 'goal_changed', actorType: 'human', summary: 'goal' as never, onlyIfWatched: false }, appendedAt: now }]);
}

test('a stalled stream holds at most two frames and a bounded socket buffer, and resumes at the latest overview', async () => {
  const store = createMemoryStore();
  for (let i = 0; i < PAIRS; i += 1) await store.watch({ watcher: key('w', i), target: key('t', i), now: 1 });
  const changes = manualChanges();
  const live = await startLiveOverview(store, changes.source);
  const allowed = new Set<string>();
  const inspector = createInspectorApp({ store, live, assets: new Map(), label: 'memory', allowedHosts: () => allowed });
  const server = createAdaptorServer({ fetch: inspector.app.fetch });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  allowed.add(`127.0.0.1:${port}`);
  const client = net.connect(port, '127.0.0.1');
  try {
    client.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    await new Promise((resolve) => client.once('data', resolve));
    client.pause();

    let frameBytes = 0;
    let mostFrames = 0;
    let mostSocketBytes = 0;
    for (let i = 0; i < CHANGES; i += 1) {
      await appendTo(store, key('t', i % PAIRS), 2 + i);
      changes.fire();
      await live.refresh();
      frameBytes = Math.max(frameBytes, (await live.current()).data.length);
      const [backlog] = inspector.streamBacklog();
      mostFrames = Math.max(mostFrames, backlog?.frames ?? 0);
      mostSocketBytes = Math.max(mostSocketBytes, backlog?.socketBytes ?? 0);
    }
    const latest = (await live.current()).update.version;
    expect(latest).toBe(CHANGES + 1);
    expect(frameBytes).toBeGreaterThan(200_000);
    expect(mostFrames).toBeLessThanOrEqual(2);
    expect(mostSocketBytes).toBeLessThanOrEqual(2 * frameBytes);

    // Reading again: the versions that arrive are the few already on their way, then the latest.
    const received: number[] = [];
    let text = '';
    client.setEncoding('utf8');
    await new Promise<void>((resolve) => {
      client.on('data', (chunk: string) => {
        text += chunk;
        for (const match of text.matchAll(/^id: (\d+)\n/gmu)) received.push(Number(match[1]));
        text = text.slice(text.lastIndexOf('\n'));
        if (received.includes(latest)) resolve();
      });
      client.resume();
    });
    expect(received.length).toBeLessThan(CHANGES / 4);
    expect(received[received.length - 1]).toBe(latest);
  } finally {
    client.destroy();
    inspector.endStreams();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await live.close();
  }
}, 60_000);
