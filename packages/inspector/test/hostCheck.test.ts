// The inspector as a web server against DNS rebinding: a request whose Host header is not a name
// of the listening address reads nothing (421, a short plain message naming no content), the
// loopback names with the port are answered, and no response grants a cross-origin read (CORS).
import { createMemoryStore } from '@session-state/adapters-memory';
import type { SessionStateAwareness } from '@session-state/app';

import { allowedHosts, isLoopbackHost } from '../src/hostCheck.js';
import { startInspector, type RunningInspector } from '../src/startInspector.js';
import { rawRequest } from './support/rawHttp.js';
import { manualChanges } from './support/serverRig.js';
import { RESEARCHER, writeScene } from './support/scene.js';

let awareness: SessionStateAwareness;
let inspector: RunningInspector;
const ROUTES = ['/', '/api/health', '/api/overview', '/api/events', `/api/timeline?session=${RESEARCHER}`, '/metrics', '/inspector.js', '/nowhere'];

beforeAll(async () => {
  const store = createMemoryStore();
  awareness = await writeScene(store);
  inspector = await startInspector({ store, changes: manualChanges().source, label: 'memory', port: 0, metricsText: () => Promise.resolve('') });
});

afterAll(async () => {
  await inspector.close();
  await awareness.close();
});

test.each(['attacker.example', 'attacker.example:PORT', 'localhost', 'localhost:1', '127.0.0.1.nip.io:PORT', '0.0.0.0:PORT', ''])(
  'refuses Host %j on every route with a 421 and a short plain message',
  async (host) => {
    for (const route of ROUTES) {
      const response = await rawRequest(inspector.url, route, { host: host.replace('PORT', String(inspector.port)) });
      expect([route, response.status]).toEqual([route, 421]);
      expect(response.headers['content-type']).toMatch(/^text\/plain/u);
      expect(response.body).toBe('misdirected request: this inspector answers only to the names of the address it listens on\n');
    }
  },
);

test.each(['127.0.0.1:PORT', 'localhost:PORT', 'LOCALHOST:PORT', '[::1]:PORT'])('answers Host %j', async (host) => {
  const response = await rawRequest(inspector.url, '/api/overview', { host: host.replace('PORT', String(inspector.port)) });
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body)).toMatchObject({ label: 'memory', version: 1 });
});

test('grants no cross-origin read: no access-control header on any route, preflight included', async () => {
  const host = `127.0.0.1:${inspector.port}`;
  for (const route of ROUTES.filter((path) => path !== '/api/events')) {
    for (const method of ['GET', 'OPTIONS']) {
      const response = await rawRequest(inspector.url, route, { host, origin: 'http://attacker.example:4319', 'access-control-request-method': 'GET' }, method);
      const granted = Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
      expect([method, route, granted]).toEqual([method, route, []]);
    }
  }
});

test('the allowed names follow the listening address: loopback names, an explicit host as given, a wildcard adds this machine', () => {
  expect([...allowedHosts('127.0.0.1', 4319)]).toEqual(['127.0.0.1:4319', 'localhost:4319', '[::1]:4319']);
  expect([...allowedHosts('::1', 80)]).toEqual(['127.0.0.1:80', 'localhost:80', '[::1]:80']);
  expect([...allowedHosts('inspector.lan', 4319)]).toEqual(['inspector.lan:4319']);
  expect([...allowedHosts('192.0.2.7', 4319)]).toEqual(['192.0.2.7:4319']);
  const wildcard = allowedHosts('0.0.0.0', 4319);
  expect([...wildcard]).toEqual(expect.arrayContaining(['127.0.0.1:4319', 'localhost:4319', '[::1]:4319']));
  expect(wildcard.has('attacker.example:4319')).toBe(false);
  expect([isLoopbackHost('127.0.0.1'), isLoopbackHost('::1'), isLoopbackHost('localhost'), isLoopbackHost('0.0.0.0'), isLoopbackHost('::'), isLoopbackHost('192.0.2.7')]).toEqual([
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
