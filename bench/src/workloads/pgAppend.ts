// PostgreSQL workloads 1 and 2: one awaited `record` per transaction over the facade on the
// PostgreSQL store, against raw pg single-append transactions running the store's statements;
// workload 2 with watchers on every target (cursor fan-out and pg_notify on every append).
import type pg from 'pg';

import { startOnStore, type Awareness } from '../library/facade.js';
import { openPgLibraryStore } from '../library/postgres.js';
import { runPaired } from '../harness/measure.js';
import type { WorkloadResult } from '../harness/context.js';
import { freshPlace, PG_POOL_SIZE, type PgBenchContext } from '../postgres/context.js';
import { rawPgAppender } from '../postgres/rawAppend.js';
import { openRawPool } from '../postgres/rawPg.js';
import { costNote, measureCostPair } from '../postgres/opCost.js';
import { createStoreSchema, seedPgCursors } from '../postgres/seed.js';
import type { CursorSeed } from '../raw/seed.js';
import { watchPairs } from './appendSetup.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey } from './keys.js';

/** Ops per side (in two halves) of the cost pass (queries, time awaiting them, CPU). */
export const COUNTED_OPS = 100;

/** The store's LISTEN/NOTIFY channel name for a schema (the raw side notifies on its own). */
export const channelOf = (schema: string): string => `session_state:${schema}`;

/** The cursors `sent({ watch: true })` creates before any append: at head 0, idle. */
export function* idleCursors(sessions: number, watchers: number, now: number): Generator<CursorSeed> {
  for (const p of watchPairs(sessions, watchers)) yield { ...p, acked: 0, notified: 0, material: 0, touchedAt: now };
}

/** The library and the raw side of an append workload, each on its own fresh schema. */
export interface PgAppendSides {
  readonly awareness: Awareness;
  readonly rawPool: pg.Pool;
  readonly rawAppend: ReturnType<typeof rawPgAppender>;
  close(): Promise<void>;
}

/** Opens both sides; `watchers` idle cursors per target are seeded by SQL on both (untimed). */
export async function openPgAppendSides(ctx: PgBenchContext, watchers: number): Promise<PgAppendSides> {
  const { sessions } = ctx.pg.sizes;
  const lib = freshPlace(ctx);
  const store = await openPgLibraryStore(lib);
  const raw = freshPlace(ctx);
  await createStoreSchema(raw.url, raw.schema);
  const rawPool = openRawPool(raw.url, raw.schema, PG_POOL_SIZE);
  if (watchers > 0) {
    // Seeded by SQL rather than 10,000 `sent` calls (5 round trips each): the rows are the same.
    const now = Date.now();
    const seeder = openRawPool(lib.url, lib.schema, 1);
    await seedPgCursors(seeder, idleCursors(sessions, watchers, now));
    await seeder.end();
    await seedPgCursors(rawPool, idleCursors(sessions, watchers, now));
  }
  const awareness = await startOnStore(store);
  return {
    awareness,
    rawPool,
    rawAppend: rawPgAppender(rawPool, channelOf(raw.schema)),
    close: async () => {
      await awareness.close();
      await rawPool.end();
    },
  };
}

async function pgAppendComparison(ctx: PgBenchContext, id: string, title: string, watchers: number): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const sides = await openPgAppendSides(ctx, watchers);
  const library = async (i: number): Promise<void> => {
    expectRecorded(await sides.awareness.record(humanTurn(targetKey(i % sizes.sessions))), 'library record');
  };
  const raw = async (i: number): Promise<void> => {
    await sides.rawAppend(rawHumanTurn(targetKey(i % sizes.sessions)), Date.now());
  };
  try {
    const stats = await runPaired(
      {
        label: `${id} ${title}`,
        n: sizes.records,
        warmup: sizes.warmup,
        chunk: sizes.chunk,
        sides: [
          { name: 'library', async: library },
          { name: 'raw', async: raw },
        ],
      },
      ctx.progress,
    );
    const lib = stats['library'];
    const base = stats['raw'];
    if (lib === undefined || base === undefined) throw new Error('missing side');
    const from = sizes.warmup + sizes.records;
    const half = COUNTED_OPS / 2;
    const ops = (op: (i: number) => Promise<void>) => async (part: 0 | 1) => {
      for (let i = from + part * half; i < from + (part + 1) * half; i++) await op(i);
    };
    const cost = await measureCostPair(half, ops(library), ops(raw));
    return {
      id,
      title,
      sides: [
        { side: 'library', op: 'record', ...lib },
        { side: 'raw', op: 'append tx', ...base },
      ],
      checks: [],
      notes: [costNote(id, 'record', cost)],
    };
  } finally {
    await sides.close();
  }
}

export function pg1SingleAppend(ctx: PgBenchContext): Promise<WorkloadResult> {
  const s = ctx.pg.sizes;
  return pgAppendComparison(ctx, 'pg1', `single record per tx, ${s.records} events / ${s.sessions} sessions`, 0);
}

export function pg2FanOut(ctx: PgBenchContext): Promise<WorkloadResult> {
  const w = ctx.pg.sizes.watchersPerTarget;
  return pgAppendComparison(ctx, 'pg2', `as pg1 with ${w} watchers per target (cursor fan-out, notify)`, w);
}
