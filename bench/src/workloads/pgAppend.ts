// PostgreSQL workloads 1–3: one awaited `record` per transaction against raw pg single appends; pg2
// with watchers on every target; pg3 with 100 calls in flight (group commit).
import type { WorkloadResult } from '../harness/context.js';
import type { PgBenchContext } from '../postgres/server.js';
import { channelOf, rawPgAppender } from '../postgres/rawPg.js';
import { openPgSides, pgLatencyPair, seedPgCursors } from '../postgres/seed.js';
import { idleCursor } from '../raw/seed.js';
import { inFlightComparison, libraryBurstOp, libraryRecordOp, watchPairs } from './appendSetup.js';
import { rawHumanTurn, targetKey } from './keys.js';

/** Both sides with `watchers` idle cursors per target seeded by SQL; op `i` records on target `i mod sessions`. */
async function openPgAppendSides(ctx: PgBenchContext, id: string, watchers: number) {
  const { sessions } = ctx.pg.sizes;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const cursors = [...watchPairs(sessions, watchers)].map((p) => idleCursor(p, Date.now()));
  const sides = await openPgSides(ctx, async (pool) => (watchers > 0 ? seedPgCursors(pool, cursors) : undefined));
  const rawAppend = rawPgAppender(sides.raw.pool, channelOf(sides.raw.place.schema));
  return { ...sides, library: libraryRecordOp(sides.awareness, sessions), raw: async (i: number): Promise<void> => void (await rawAppend(rawHumanTurn(targetKey(i % sessions)), Date.now())) };
}

async function pgAppendComparison(ctx: PgBenchContext, id: string, title: string, watchers: number): Promise<WorkloadResult> {
  const { records: n, warmup } = ctx.pg.sizes;
  const sides = await openPgAppendSides(ctx, id, watchers);
  try {
    return await pgLatencyPair(ctx, id, title, { n, warmup }, { library: 'record', raw: 'append tx' }, sides);
  } finally {
    await sides.close();
  }
}

export const pg1SingleAppend = (ctx: PgBenchContext): Promise<WorkloadResult> => pgAppendComparison(ctx, 'pg1', `single record per tx, ${ctx.pg.sizes.records} events / ${ctx.pg.sizes.sessions} sessions`, 0);

export const pg2FanOut = (ctx: PgBenchContext): Promise<WorkloadResult> =>
  pgAppendComparison(ctx, 'pg2', `as pg1 with ${ctx.pg.sizes.watchersPerTarget} watchers per target (cursor fan-out, notify)`, ctx.pg.sizes.watchersPerTarget);

export async function pg3InFlight(ctx: PgBenchContext): Promise<WorkloadResult> {
  const { inFlight, sessions, records: n, warmup } = ctx.pg.sizes;
  const sides = await openPgAppendSides(ctx, 'pg3', 0);
  try {
    // A whole number of bursts per chunk: a library call covers `inFlight` op indexes.
    const chunk = Math.ceil(ctx.pg.sizes.chunk / inFlight) * inFlight;
    return await inFlightComparison(ctx, 'pg3', { n, warmup, chunk, inFlight }, libraryBurstOp(sides.awareness, inFlight, sessions), { name: 'raw', async: sides.raw });
  } finally {
    await sides.close();
  }
}
