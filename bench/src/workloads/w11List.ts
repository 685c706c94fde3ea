// Workload 11: `list` of 10 keys and of every key, over sessions with a head each, against the same
// read done raw (prepared `IN (?, …)` statements of 500 keys at most, one version per key in order).
import type Database from 'better-sqlite3';

import { runPaired, type BenchSide } from '../harness/measure.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { seededLibrary, seededRawDb } from './appendSetup.js';
import { keysOf, logKey } from './keys.js';

const FEW = 10;
const CHUNK = 500;

function rawLister(client: Database.Database): (keys: readonly string[]) => { sessionKey: string; stateVersion?: number }[] {
  const bySize = new Map<number, Database.Statement<string[], [string, number]>>();
  const statement = (n: number): Database.Statement<string[], [string, number]> => {
    const found = bySize.get(n) ?? client.prepare<string[], [string, number]>(`SELECT session_key, head FROM heads WHERE session_key IN (${Array(n).fill('?').join(', ')})`).raw(true);
    bySize.set(n, found);
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
  const keys = keysOf(sessions, logKey);
  const seed = { count: sessions, sessionKeys: keys, appendedAt: Date.now() };
  const awareness = await seededLibrary(ctx.tempDb('w11-library'), seed);
  const raw = seededRawDb(ctx.tempDb('w11-raw'), seed);
  const list = rawLister(raw.client);
  /** Ten keys spread over the key space, different each op. */
  const few = (i: number): string[] => Array.from({ length: FEW }, (_, j) => keys[(i * 7919 + j * 9973) % sessions] as string);
  const check = (got: readonly { stateVersion?: number }[], want: number, what: string): void => {
    if (got.length !== want || got.some((r) => r.stateVersion === undefined)) throw new Error(`${what}: expected ${want} versions`);
  };
  try {
    const run = async (id: string, title: string, n: number, ops: { library: string; raw: string }, sides: readonly [BenchSide, BenchSide]): Promise<WorkloadResult> => {
      const stats = await runPaired({ label: `${id} ${title}`, n, warmup: Math.max(2, Math.floor(n / 10)), chunk: Math.max(1, Math.floor(n / 10)), sides }, ctx.progress);
      return latencyResult(id, `${title} (${sessions} sessions)`, ops, stats, 1.5);
    };
    return [
      await run('11a', `list of ${FEW} keys`, listFew, { library: `list ${FEW} keys`, raw: `select ${FEW} keys` }, [
        { name: 'library', async: async (i) => check(await awareness.list(few(i)), FEW, 'library list') },
        { name: 'raw', sync: (i) => check(list(few(i)), FEW, 'raw list') },
      ]),
      await run('11b', 'list of all keys', listAll, { library: 'list all keys', raw: 'select all keys' }, [
        { name: 'library', async: async () => check(await awareness.list(keys), sessions, 'library list') },
        { name: 'raw', sync: () => check(list(keys), sessions, 'raw list') },
      ]),
    ];
  } finally {
    await awareness.close();
    raw.client.close();
  }
}
