// PostgreSQL workload 4: `status` with `changesSince` on a seeded log, a tail poll and a full
// 200-event page, over the facade on the PostgreSQL store against the store's read run raw.
import { openPgLibraryStore, startOnStore } from '../library/facade.js';
import { runPaired } from '../harness/measure.js';
import type { WorkloadResult } from '../harness/context.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { rawPgReader } from '../postgres/rawPg.js';
import { costNote } from '../postgres/opCost.js';
import { freshRawSide, seedPgEvents, tailSinceFromPg, withPool } from '../postgres/seed.js';
import { keysOf, logKey } from './keys.js';
import { costOfOps } from './pgAppend.js';
import { libraryReadOps, PAGE, rawReadOps } from './w4StatusReads.js';

export async function pg4StatusReads(ctx: PgBenchContext): Promise<WorkloadResult[]> {
  const sizes = ctx.pg.sizes;
  ctx.progress.update('pg4: seeding both logs', 0, 1);
  const sessionKeys = keysOf(sizes.logSessions, logKey);
  const seed = { count: sizes.logRows, sessionKeys, appendedAt: Date.now() };
  const libPlace = freshPlace(ctx);
  const store = await openPgLibraryStore(libPlace);
  await withPool(libPlace, (pool) => seedPgEvents(pool, seed));
  const awareness = await startOnStore(store, { maxRows: sizes.logRows * 2 });
  const { pool: rawPool } = await freshRawSide(ctx);
  await seedPgEvents(rawPool, seed);
  const since = await tailSinceFromPg(rawPool, sessionKeys, sizes.tailEvents);
  const lib = libraryReadOps(awareness, sizes.logSessions, since, sizes.tailEvents);
  const raw = rawReadOps(rawPgReader(rawPool), sizes.logSessions, since, sizes.tailEvents);
  const shape = `${sizes.logRows} rows / ${sizes.logSessions} sessions`;
  try {
    const result = async (id: string, title: string, op: 'tail' | 'page', n: number): Promise<WorkloadResult> => {
      const rawOp = async (i: number): Promise<void> => raw[op](i);
      const [l, b] = await runPaired({ label: `${id} ${title}`, n, warmup: Math.min(300, n / 4), chunk: sizes.chunk, sides: [{ name: 'library', async: lib[op] }, { name: 'raw', async: rawOp }] }, ctx.progress);
      const cost = await costOfOps(1, lib[op], rawOp);
      return {
        id,
        title: `${title} (${shape})`,
        sides: [{ side: 'library', op: `status ${op}`, ...l }, { side: 'raw', op: `select ${op}`, ...b }],
        checks: [],
        notes: [costNote(id, 'read', cost)],
      };
    };
    return [await result('pg4a', `status tail poll, ${sizes.tailEvents} events`, 'tail', sizes.tailPolls), await result('pg4b', `status full ${PAGE}-event page`, 'page', sizes.pageReads)];
  } finally {
    await awareness.close();
    await rawPool.end();
  }
}
