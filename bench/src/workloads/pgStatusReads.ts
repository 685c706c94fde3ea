// PostgreSQL workload 4: `status` with `changesSince` on a seeded log, a tail poll and a full
// 200-event page, over the facade on the PostgreSQL store against the store's read run raw.
import type { WorkloadResult } from '../harness/context.js';
import type { PgBenchContext } from '../postgres/server.js';
import { rawPgReader } from '../postgres/rawPg.js';
import { openPgSides, pgLatencyPair, seedPgEvents, tailSinceFromPg } from '../postgres/seed.js';
import { keysOf, logKey } from './keys.js';
import { libraryReadOps, PAGE, rawReadOps } from './w4StatusReads.js';

export async function pg4StatusReads(ctx: PgBenchContext): Promise<WorkloadResult[]> {
  const sizes = ctx.pg.sizes;
  ctx.progress.update('pg4: seeding both logs', 0, 1);
  const sessionKeys = keysOf(sizes.logSessions, logKey);
  const seed = { count: sizes.logRows, sessionKeys, appendedAt: Date.now() };
  const sides = await openPgSides(ctx, (pool) => seedPgEvents(pool, seed), { maxRows: sizes.logRows * 2 });
  try {
    const since = await tailSinceFromPg(sides.raw.pool, sessionKeys, sizes.tailEvents);
    const lib = libraryReadOps(sides.awareness, sizes.logSessions, since, sizes.tailEvents);
    const raw = rawReadOps(rawPgReader(sides.raw.pool), sizes.logSessions, since, sizes.tailEvents);
    const result = (id: string, title: string, op: 'tail' | 'page', n: number): Promise<WorkloadResult> =>
      pgLatencyPair(ctx, id, `${title} (${sizes.logRows} rows / ${sizes.logSessions} sessions)`, { n, warmup: Math.min(300, n / 4) }, { library: `status ${op}`, raw: `select ${op}` }, {
        library: lib[op],
        raw: async (i) => raw[op](i),
      });
    return [await result('pg4a', `status tail poll, ${sizes.tailEvents} events`, 'tail', sizes.tailPolls), await result('pg4b', `status full ${PAGE}-event page`, 'page', sizes.pageReads)];
  } finally {
    await sides.close();
  }
}
