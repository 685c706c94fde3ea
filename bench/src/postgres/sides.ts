// Both sides of a PostgreSQL workload: fresh schemas seeded alike by SQL, the facade started on the
// library's, and the paired latency run.
import type pg from 'pg';

import type { WorkloadResult } from '../harness/context.js';
import { runPaired } from '../harness/measure.js';
import { openPgLibraryStore, startOnStore, type LibraryOptions } from '../library/facade.js';
import { freshSchema } from './seed.js';
import type { PgBenchContext } from './server.js';

/** `seed` runs on both schemas (untimed) before the library's facade starts with `options`. */
export async function openPgSides(ctx: PgBenchContext, seed: (pool: pg.Pool) => Promise<void>, options: LibraryOptions = {}) {
  const lib = await freshSchema(ctx, 1);
  const raw = await freshSchema(ctx);
  try {
    await seed(lib.pool);
    await seed(raw.pool);
  } finally {
    await lib.pool.end();
  }
  const awareness = await startOnStore(await openPgLibraryStore(lib.place), options).catch(async (e: unknown) => {
    await raw.pool.end();
    throw e;
  });
  return {
    awareness,
    raw,
    close: async (): Promise<void> => {
      await awareness.close();
      await raw.pool.end();
    },
  };
}

type PairedOps = { readonly library: (i: number) => Promise<unknown>; readonly raw: (i: number) => Promise<unknown> };

/** runPaired of one library op against one raw op. */
export async function pgLatencyPair(ctx: PgBenchContext, id: string, title: string, run: { n: number; warmup: number }, ops: { library: string; raw: string }, sides: PairedOps): Promise<WorkloadResult> {
  const [lib, base] = await runPaired({ label: `${id} ${title}`, n: run.n, warmup: run.warmup, chunk: ctx.pg.sizes.chunk, sides: [{ name: 'library', async: sides.library }, { name: 'raw', async: sides.raw }] }, ctx.progress);
  return { id, title, sides: [{ side: 'library', op: ops.library, ...lib }, { side: 'raw', op: ops.raw, ...base }], checks: [] };
}
