// The inspector on a SQLite state file, as `session-state inspect` runs it: the store opened
// read-only and the file polled. Reading every endpoint leaves the file byte for byte as it was
// (no -wal or -shm created), and a commit by another connection reaches the event stream.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import { asSequence, type SessionKey, type StateStore } from '@session-state/domain';

import { sqliteFileChanges, sqliteFileToken } from '../src/changes.js';
import { startInspector, type RunningInspector } from '../src/startInspector.js';
import { MANAGER, OPS, RESEARCHER, writeScene } from './support/scene.js';
import { openEventStream } from './support/serverRig.js';

/** The sha256 of the file's bytes, and whether a -wal or -shm exists beside it. */
function fileState(file: string): { readonly hash: string; readonly wal: boolean; readonly shm: boolean } {
  return {
    hash: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    wal: fs.existsSync(`${file}-wal`),
    shm: fs.existsSync(`${file}-shm`),
  };
}

let dir: string;
let file: string;
let reader: StateStore;
let inspector: RunningInspector;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-inspector-'));
  file = path.join(dir, 'state.db');
  const writer = openSqliteStore({ path: file });
  const awareness = await writeScene(writer);
  await awareness.close();
  reader = openSqliteStore({ path: file, readOnly: true });
  inspector = await startInspector({ store: reader, changes: sqliteFileChanges(file, 50), label: file, port: 0 });
});

afterAll(async () => {
  await inspector.close();
  await reader.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('reading every endpoint and the event stream changes no byte of the file and creates no -wal or -shm', async () => {
  const before = fileState(file);
  expect(before).toMatchObject({ wal: false, shm: false });
  const stream = await openEventStream(inspector.url);
  await stream.next();
  stream.close();
  for (const route of [
    '/',
    '/api/overview',
    `/api/timeline?session=${encodeURIComponent(RESEARCHER)}`,
    `/api/pair?watcher=${encodeURIComponent(OPS)}&target=${encodeURIComponent(RESEARCHER)}`,
    '/metrics',
  ]) {
    await (await fetch(new URL(route, inspector.url))).arrayBuffer();
  }
  expect(fileState(file)).toEqual(before);
});

test("another connection's commit changes the file's token and reaches the event stream as a new overview", async () => {
  const stream = await openEventStream(inspector.url);
  try {
    const first = await stream.next();
    const token = sqliteFileToken(file);
    // The ops watcher's gateway drains its notice: one commit that moves one cursor, no event.
    const opsBefore = first.overview.graph.edges.find((edge) => edge.source === OPS);
    const writer = openSqliteStore({ path: file });
    try {
      await writer.drain({ watcher: OPS as SessionKey, acks: [{ target: RESEARCHER as SessionKey, notified: asSequence(opsBefore?.notified ?? 0) }], now: Date.now() });
    } finally {
      await writer.close();
    }
    expect(sqliteFileToken(file)).not.toBe(token);
    const next = await stream.next();
    expect(next.version).toBeGreaterThan(first.version);
    const opsEdge = (update: typeof first) => update.overview.graph.edges.find((edge) => edge.source === OPS);
    expect(opsEdge(next)?.acked).toBe(opsEdge(first)?.notified);
    expect(next.overview.graph.edges.find((edge) => edge.source === MANAGER)).toEqual(first.overview.graph.edges.find((edge) => edge.source === MANAGER));
  } finally {
    stream.close();
  }
});
