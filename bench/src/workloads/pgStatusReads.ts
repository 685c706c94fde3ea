// PostgreSQL workload 4: `status` with `changesSince` on a seeded log – a tail poll returning ~10
// events, and a full 200-event page – over the facade on the PostgreSQL store, against the
// store's one-statement read run raw on a pg Pool.
import { startOnStore } from '../library/facade.js';
import { openPgLibraryStore } from '../library/postgres.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import type { SideStats } from '../harness/stats.js';
import type { WorkloadResult } from '../harness/context.js';
import { freshPlace, PG_POOL_SIZE, type PgBenchContext } from '../postgres/context.js';
import { rawPgReader } from '../postgres/rawReadChanges.js';
import { openRawPool } from '../postgres/rawPg.js';
import { costNote, measureCostPair } from '../postgres/opCost.js';
import { createStoreSchema, seedPgEvents, tailSinceFromPg } from '../postgres/seed.js';
import { logKey } from './keys.js';
import { COUNTED_OPS } from './pgAppend.js';
import { libraryReadOps } from './w4StatusReads.js';

const PAGE = 200;

function pair(id: string, title: string, op: string, lib: SideStats, base: SideStats, note: string): WorkloadResult {
  return {
    id,
    title,
    sides: [
      { side: 'library', op: `status ${op}`, ...lib },
      { side: 'raw', op: `select ${op}`, ...base },
    ],
    checks: [],
    notes: [note],
  };
}

export async function pg4StatusReads(ctx: PgBenchContext): Promise<WorkloadResult[]> {
  const sizes = ctx.pg.sizes;
  ctx.progress.update('pg4: seeding both logs', 0, 1);
  const sessionKeys = Array.from({ length: sizes.logSessions }, (_, s) => logKey(s));
  const seed = { count: sizes.logRows, sessionKeys, appendedAt: Date.now() };

  // Library: the store migrates its schema, the log is written beside it, then the facade starts.
  const libPlace = freshPlace(ctx);
  const store = await openPgLibraryStore(libPlace);
  const seeder = openRawPool(libPlace.url, libPlace.schema, 1);
  await seedPgEvents(seeder, seed);
  await seeder.end();
  const awareness = await startOnStore(store, { maxRows: sizes.logRows * 2 });

  const rawPlace = freshPlace(ctx);
  await createStoreSchema(rawPlace.url, rawPlace.schema);
  const rawPool = openRawPool(rawPlace.url, rawPlace.schema, PG_POOL_SIZE);
  await seedPgEvents(rawPool, seed);
  const since = await tailSinceFromPg(rawPool, sessionKeys, sizes.tailEvents);
  const read = rawPgReader(rawPool);
  const lib = libraryReadOps(awareness, sizes.logSessions, since, sizes.tailEvents);
  const raw = {
    tail: async (i: number): Promise<void> => {
      const key = logKey(i % sizes.logSessions);
      const r = await read(key, since.get(key) ?? 0, PAGE);
      if (i === 0 && r.events.length !== sizes.tailEvents) throw new Error(`raw tail poll: got ${r.events.length} events`);
    },
    page: async (i: number): Promise<void> => {
      const r = await read(logKey(i % sizes.logSessions), 0, PAGE);
      if (i === 0 && r.events.length !== PAGE) throw new Error(`raw page: got ${r.events.length} events`);
    },
  };
  try {
    const run = async (label: string, n: number, sides: BenchSide[]) =>
      runPaired({ label, n, warmup: Math.min(300, n / 4), chunk: sizes.chunk, sides }, ctx.progress);
    const tail = await run(`pg4a tail poll (~${sizes.tailEvents} events)`, sizes.tailPolls, [
      { name: 'library', async: lib.tail },
      { name: 'raw', async: raw.tail },
    ]);
    const page = await run(`pg4b full ${PAGE}-event page`, sizes.pageReads, [
      { name: 'library', async: lib.page },
      { name: 'raw', async: raw.page },
    ]);
    const need = (s: SideStats | undefined): SideStats => {
      if (s === undefined) throw new Error('missing side');
      return s;
    };
    const half = COUNTED_OPS / 2;
    const ops = (op: (i: number) => Promise<void>) => async (part: 0 | 1) => {
      for (let i = 1 + part * half; i <= (part + 1) * half; i++) await op(i);
    };
    const tripsNote = async (id: string, which: 'tail' | 'page'): Promise<string> =>
      costNote(id, 'read', await measureCostPair(half, ops(lib[which]), ops(raw[which])));
    const shape = `${sizes.logRows} rows / ${sizes.logSessions} sessions`;
    return [
      pair('pg4a', `status tail poll, ${sizes.tailEvents} events (${shape})`, 'tail', need(tail['library']), need(tail['raw']), await tripsNote('pg4a', 'tail')),
      pair('pg4b', `status full ${PAGE}-event page (${shape})`, 'page', need(page['library']), need(page['raw']), await tripsNote('pg4b', 'page')),
    ];
  } finally {
    await awareness.close();
    await rawPool.end();
  }
}
