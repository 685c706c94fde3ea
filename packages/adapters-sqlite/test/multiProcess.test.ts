// Several processes appending to one file at once: no sequence is duplicated or reordered, no
// event is lost, dedupe keys hold across processes, heads equal the highest sequence, and the
// watcher's cursor saw every foreign change. The children run the BUILT package (dist/).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { asSequence, type SessionEvent, type SessionKey, type StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';

const WORKERS = Number(process.env['SQLITE_MP_WORKERS'] ?? 3);
const EVENTS_PER_WORKER = Number(process.env['SQLITE_MP_EVENTS'] ?? 300);
const SHARED = 'agent:shared:main' as SessionKey;
const WATCHER = 'agent:observer:main' as SessionKey;
const ownKeys = (worker: number): SessionKey[] => [`agent:own-${worker}:a`, `agent:own-${worker}:b`] as SessionKey[];
const COMMON = 'agent:common:main' as SessionKey; // every worker's own list also includes it

const packageDir = path.join(__dirname, '..');
const workerScript = path.join(__dirname, 'support', 'appendWorker.cjs');

interface ReportedOutcome {
  readonly type: 'appended' | 'duplicate' | 'skipped' | 'failed';
  readonly sessionKey: SessionKey;
  readonly dedupeKey?: string;
  readonly sequence?: number;
  readonly error?: string;
}

type WorkerMessage = { ready: true } | { ok: true; outcomes: ReportedOutcome[] } | { ok: false; error: string };

let temp: TempDb;

beforeAll(() => {
  // `npm test` builds first; a bare `jest` run on a fresh checkout builds this package here.
  if (!fs.existsSync(path.join(packageDir, 'dist', 'index.js'))) {
    execFileSync('npx', ['tsc', '-b', packageDir], { stdio: 'inherit' });
  }
});
beforeEach(() => {
  temp = tempDbPath();
});
afterEach(() => temp.remove());

function startWorker(id: number): { child: ChildProcess; ready: Promise<void>; done: Promise<ReportedOutcome[]> } {
  const child = fork(workerScript, [temp.path, String(id), String(EVENTS_PER_WORKER), SHARED, ...ownKeys(id), COMMON], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const done = new Promise<ReportedOutcome[]>((resolve, reject) => {
    child.on('message', (message: WorkerMessage) => {
      if ('ready' in message) onReady();
      else if (message.ok) resolve(message.outcomes);
      else reject(new Error(`worker ${id}: ${message.error}`));
    });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`worker ${id} exited with ${String(code)}`));
    });
    child.on('error', reject);
  });
  return { child, ready, done };
}

async function readAll(store: StateStore, sessionKey: SessionKey): Promise<SessionEvent[]> {
  const all: SessionEvent[] = [];
  let since = 0;
  for (;;) {
    const page = await store.readChanges(sessionKey, asSequence(since), 200);
    all.push(...page.events);
    const last = page.events[page.events.length - 1];
    if (!page.hasMore || last === undefined) return all;
    since = last.sequence;
  }
}

test(`${WORKERS} processes appending at once never duplicate, reorder or lose a sequence`, async () => {
  // The file exists, migrated, with one watcher on the shared session, before the children start.
  const setup = openSqliteStore({ path: temp.path });
  await setup.watch({ watcher: WATCHER, target: SHARED, now: 0 });
  await setup.close();

  const workers = Array.from({ length: WORKERS }, (_, i) => startWorker(i));
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.send('go');
  const reports = await Promise.all(workers.map((w) => w.done));

  const store = openSqliteStore({ path: temp.path });
  try {
    const outcomes = reports.flat();
    expect(outcomes.filter((o) => o.type === 'failed')).toEqual([]);
    expect(outcomes).toHaveLength(WORKERS * EVENTS_PER_WORKER);

    // Each process saw its own appends to one session in strictly increasing order.
    for (const report of reports) {
      const bySession = new Map<string, number[]>();
      for (const o of report) if (o.type === 'appended') bySession.set(o.sessionKey, [...(bySession.get(o.sessionKey) ?? []), o.sequence ?? -1]);
      for (const seqs of bySession.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }

    // Every appended outcome is stored exactly once, under its session, and nothing else is.
    const appended = outcomes.filter((o) => o.type === 'appended');
    const sessions = [...new Set(outcomes.map((o) => o.sessionKey))];
    const stored = new Map<SessionKey, SessionEvent[]>();
    for (const key of sessions) stored.set(key, await readAll(store, key));
    const allStored = [...stored.values()].flat();
    const storedSeqs = allStored.map((e) => e.sequence);
    expect(new Set(storedSeqs).size).toBe(storedSeqs.length);
    expect([...storedSeqs].sort((a, b) => a - b)).toEqual(appended.map((o) => o.sequence).sort((a, b) => (a ?? 0) - (b ?? 0)));
    for (const [key, events] of stored) {
      const seqs = events.map((e) => e.sequence);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(seqs).toEqual(appended.filter((o) => o.sessionKey === key).map((o) => o.sequence).sort((a, b) => (a ?? 0) - (b ?? 0)));
      expect(seqs.length).toBe(appended.filter((o) => o.sessionKey === key).length);
    }

    // A dedupe key shared by every process was won exactly once; the others got that event.
    const byDedupe = new Map<string, ReportedOutcome[]>();
    for (const o of outcomes) if (o.dedupeKey !== undefined) byDedupe.set(o.dedupeKey, [...(byDedupe.get(o.dedupeKey) ?? []), o]);
    expect(byDedupe.size).toBeGreaterThan(0);
    for (const group of byDedupe.values()) {
      expect(group.filter((o) => o.type === 'appended')).toHaveLength(1);
      expect(new Set(group.map((o) => o.sequence)).size).toBe(1);
    }

    // Heads equal the highest sequence of each session.
    const heads = await store.readHeads(sessions);
    expect(heads).toHaveLength(sessions.length);
    for (const row of heads) {
      const seqs = (stored.get(row.sessionKey) ?? []).map((e) => e.sequence);
      expect(row.head).toBe(Math.max(...seqs));
    }

    // The watcher's cursor on the shared session opened on the first change and saw the last.
    const sharedSeqs = (stored.get(SHARED) ?? []).map((e) => e.sequence);
    const [cursor] = await store.listCursors({ watcher: WATCHER, target: SHARED });
    expect(cursor).toMatchObject({ acked: 0, notified: sharedSeqs[0], material: sharedSeqs[sharedSeqs.length - 1] });
  } finally {
    await store.close();
  }
}, 120_000);
