// Workload 10: `list` of 10 keys and of every key, over 100,000 sessions with a head each, against
// the same read done raw (prepared `IN (?, …)` statements, 500 keys at most per run, then one
// version per key in the order given).
import type Database from 'better-sqlite3';

import { openLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import type { SideStats } from '../harness/stats.js';
import { openRawDb } from '../raw/rawDb.js';
import { openSeedConnection, seedEvents } from '../raw/seed.js';
import { logKey } from './keys.js';

const FEW = 10;
// SQLite's bound-parameter limit is far above this; a hand-written reader still chunks a long list.
const CHUNK = 500;

/** The raw `list`: one statement per chunk size, prepared once. */
function rawLister(client: Database.Database): (keys: readonly string[]) => { sessionKey: string; stateVersion?: number }[] {
  const bySize = new Map<number, Database.Statement<string[], [string, number]>>();
  const statement = (n: number) => {
    let found = bySize.get(n);
    if (found === undefined) {
      found = client.prepare<string[], [string, number]>(`SELECT session_key, head FROM heads WHERE session_key IN (${Array(n).fill('?').join(', ')})`).raw(true);
      bySize.set(n, found);
    }
    return found;
  };
  return (keys) => {
    const versions = new Map<string, number>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const chunk = keys.slice(i, i + CHUNK);
      for (const [key, head] of statement(chunk.length).all(...chunk)) versions.set(key, head);
    }
    return keys.map((key) => {
      const version = versions.get(key) ?? 0;
      return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
    });
  };
}

export async function w11List(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { listSessions: sessions, listFew, listAll } = ctx.sizes;
  ctx.progress.update('11: seeding both files', 0, 1);
  const keys = Array.from({ length: sessions }, (_, s) => logKey(s));
  const seed = { count: sessions, sessionKeys: keys, appendedAt: Date.now() };

  const libPath = ctx.tempDb('w11-library');
  const store = openLibraryStore(libPath);
  const seeder = openSeedConnection(libPath);
  seedEvents(seeder, seed);
  seeder.close();
  const awareness: Awareness = await startOnStore(store, { maxRows: sessions * 2 });
  const raw = openRawDb(ctx.tempDb('w11-raw'));
  seedEvents(raw.client, seed);
  const list = rawLister(raw.client);

  /** Ten keys starting at a different session each op (spread over the key space). */
  const few = (i: number): string[] => Array.from({ length: FEW }, (_, j) => keys[(i * 7919 + j * 9973) % sessions] as string);
  const check = (got: readonly { stateVersion?: number }[], want: number, what: string): void => {
    if (got.length !== want || got.some((r) => r.stateVersion === undefined)) throw new Error(`${what}: expected ${want} versions`);
  };
  try {
    const run = (label: string, n: number, sides: BenchSide[]) => runPaired({ label, n, warmup: Math.max(2, Math.floor(n / 10)), chunk: Math.max(1, Math.floor(n / 10)), sides }, ctx.progress);
    const small = await run(`11a list of ${FEW} keys`, listFew, [
      { name: 'library', async: async (i) => check(await awareness.list(few(i)), FEW, 'library list') },
      { name: 'raw', sync: (i) => check(list(few(i)), FEW, 'raw list') },
    ]);
    const all = await run(`11b list of all ${sessions} keys`, listAll, [
      { name: 'library', async: async () => check(await awareness.list(keys), sessions, 'library list') },
      { name: 'raw', sync: () => check(list(keys), sessions, 'raw list') },
    ]);
    const need = (s: SideStats | undefined): SideStats => {
      if (s === undefined) throw new Error('missing side');
      return s;
    };
    return [
      latencyResult('11a', `list of ${FEW} keys (${sessions} sessions)`, { library: `list ${FEW} keys`, raw: `select ${FEW} keys` }, need(small['library']), need(small['raw']), 1.5),
      latencyResult('11b', `list of all keys (${sessions} sessions)`, { library: 'list all keys', raw: 'select all keys' }, need(all['library']), need(all['raw']), 1.5),
    ];
  } finally {
    await awareness.close();
    raw.client.close();
  }
}
