// At gateway scale the inspector reads what it shows, not the world: the overview it pushes is
// bounded whatever the store holds (pending pairs first, the counts exact), a change never reads
// the whole cursor journal (a pair's journal is read when the page asks for that pair), and a
// trivial request reads nothing from the store.
import { createMemoryStore } from '@session-state/adapters-memory';
import type { SessionKey, StateStore } from '@session-state/domain';

import { GRAPH_EDGE_LIMIT, GRAPH_SESSION_LIMIT } from '../src/overview.js';
import { NOTICE_LIMIT, type Overview } from '../src/overview.js';
import { startInspector } from '../src/startInspector.js';
import { appendOneEach, sessionKeys } from './support/manySessions.js';
import { getJson, manualChanges, openEventStream } from './support/serverRig.js';

const SESSIONS = 20_000;
const CURSORS = 3000;
const PENDING = 150;

/** Head and cursor rows a read returned (a `readOverview` answer holds both). */
function rowsIn(answer: unknown): number {
  if (Array.isArray(answer)) return answer.length;
  const overview = answer as { heads?: unknown[]; cursors?: unknown[] };
  return (overview.heads?.length ?? 0) + (overview.cursors?.length ?? 0);
}

/** `store` with a count of each read method's calls, the filter it was given, and the head and cursor rows returned. */
function countingReads(store: StateStore): { readonly store: StateStore; readonly calls: { method: string; filter: unknown }[]; readonly rows: { count: number } } {
  const calls: { method: string; filter: unknown }[] = [];
  const rows = { count: 0 };
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || !['readHeads', 'listCursors', 'readOverview', 'readCursorJournal', 'scanPending', 'readChanges'].includes(String(name))) return value;
      return async (...args: unknown[]) => {
        calls.push({ method: String(name), filter: args[0] });
        const answer: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (['readHeads', 'listCursors', 'readOverview'].includes(String(name))) rows.count += rowsIn(answer);
        return answer;
      };
    },
  });
  return { store: counted, calls, rows };
}

test('with 20,000 sessions the overview is bounded, pending pairs first, counts exact; a change reads rows bounded by the caps and no journal; /api/health reads nothing', async () => {
  const memory = createMemoryStore();
  const keys = sessionKeys(SESSIONS);
  await appendOneEach(memory, keys, 1);
  for (let i = 0; i < CURSORS; i += 1) await memory.watch({ watcher: keys[i] as SessionKey, target: keys[SESSIONS - 1 - i] as SessionKey, now: 2 });
  // The last cursors watched turn pending: the store lists them last, the overview must show them.
  await appendOneEach(memory, keys.slice(SESSIONS - CURSORS, SESSIONS - CURSORS + PENDING), 3, 'goal_changed');

  const { store, calls, rows } = countingReads(memory);
  const changes = manualChanges();
  const inspector = await startInspector({ store, changes: changes.source, label: 'memory', port: 0 });
  try {
    const { body } = await getJson<{ overview: Overview }>(inspector.url, '/api/overview');
    const { graph, counts, notices, truncated } = body.overview;
    const heads = await memory.readHeads();
    expect(counts).toEqual({ sessions: SESSIONS, cursors: CURSORS, pendingPairs: PENDING, pendingNotices: PENDING, highestHead: Math.max(...heads.map((row) => row.head)), prunedSessions: 0 });
    expect(graph.sessions.length).toBeLessThanOrEqual(GRAPH_SESSION_LIMIT);
    expect(graph.edges.length).toBeLessThanOrEqual(GRAPH_EDGE_LIMIT);
    expect(notices.length).toBeLessThanOrEqual(NOTICE_LIMIT);
    expect(truncated).toBe(true);
    expect(graph.edges.filter((edge) => edge.pending)).toHaveLength(PENDING);
    const shown = new Set(graph.sessions.map((node) => node.id));
    expect(graph.edges.every((edge) => shown.has(edge.source) && shown.has(edge.target))).toBe(true);

    // A change: one bounded overview read, and the heads of the keys shown beyond its first
    // heads; the rows returned are bounded by the caps, not the store's size; no journal.
    const stream = await openEventStream(inspector.url);
    try {
      expect((await stream.next()).version).toBe(1);
      calls.length = 0;
      rows.count = 0;
      await appendOneEach(memory, [keys[0] as string], 4);
      changes.fire();
      const next = await stream.next();
      expect(next.version).toBe(2);
      expect(next.overview.counts.highestHead).toBe(counts.highestHead + 1);
      expect(rows.count).toBeLessThanOrEqual(2 * GRAPH_SESSION_LIMIT + GRAPH_EDGE_LIMIT);
      expect(calls.map((call) => call.method).sort()).toEqual(['readHeads', 'readOverview']);
      expect(calls.every((call) => call.method !== 'readHeads' || Array.isArray(call.filter))).toBe(true);
    } finally {
      stream.close();
    }

    // A trivial request reads nothing; a pair's history reads that pair's journal only.
    calls.length = 0;
    expect((await fetch(new URL('/api/health', inspector.url))).status).toBe(200);
    expect(calls).toEqual([]);
    const pair = { watcher: keys[0] as string, target: keys[SESSIONS - 1] as string };
    expect((await getJson<{ status: string }>(inspector.url, `/api/pair?watcher=${pair.watcher}&target=${pair.target}`)).body.status).toBe('watching');
    expect(calls).toEqual([{ method: 'readCursorJournal', filter: pair }]);
  } finally {
    await inspector.close();
  }
}, 60_000);
