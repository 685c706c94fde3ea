// The PostgreSQL column: when the server answers, workloads pg1–pg8 (library over the PostgreSQL
// store against raw pg, each side on a fresh schema dropped at the end); otherwise one line
// saying the column was skipped and why.
import type { BenchContext, WorkloadResult } from '../harness/context.js';
import type { PgBenchContext } from '../postgres/context.js';
import { createPgSchemas, probePgServer, redactPgUrl, type PgServerInfo } from '../postgres/server.js';
import { pgSizes } from '../postgres/sizes.js';
import { pg1SingleAppend, pg2FanOut } from './pgAppend.js';
import { pg3InFlight } from './pgInFlight.js';
import { pg4StatusReads } from './pgStatusReads.js';
import { pg5mPruneAtScale, pg5Prune } from './pgPrune.js';
import { pg6RestartScan } from './pgRestartScan.js';
import { pg7NoticeDelay } from './pgNoticeDelay.js';
import { pg8Gateways } from './pgGateways.js';

type PgWorkload = (ctx: PgBenchContext) => Promise<WorkloadResult | WorkloadResult[]>;

/** The column's workloads by id; `--only pg` runs them all, `--only pg1,pg4` some. */
export const PG_WORKLOADS: ReadonlyArray<readonly [string, PgWorkload]> = [
  ['pg1', pg1SingleAppend],
  ['pg2', pg2FanOut],
  ['pg3', pg3InFlight],
  ['pg4', pg4StatusReads],
  ['pg5', pg5Prune],
  ['pg5m', pg5mPruneAtScale],
  ['pg6', pg6RestartScan],
  ['pg7', pg7NoticeDelay],
  ['pg8', pg8Gateways],
];

/** What the report prints in its PostgreSQL section. */
export type PgColumn =
  | { readonly ran: true; readonly server: PgServerInfo; readonly results: readonly WorkloadResult[] }
  | { readonly ran: false; readonly url: string; readonly reason: string };

/** Runs the selected PostgreSQL workloads on `url`, or reports why the column was skipped. */
export async function runPgColumn(ctx: BenchContext, url: string, selected: (id: string) => boolean): Promise<PgColumn> {
  const probe = await probePgServer(url);
  if (!probe.ok) return { ran: false, url: redactPgUrl(url), reason: probe.reason };
  const schemas = createPgSchemas(url);
  const pgCtx: PgBenchContext = { ...ctx, pg: { url, schemas, sizes: pgSizes(ctx.sizes, ctx.quick) } };
  const results: WorkloadResult[] = [];
  try {
    for (const [id, run] of PG_WORKLOADS) {
      if (!selected(id)) continue;
      const t0 = Date.now();
      const out = await run(pgCtx);
      results.push(...(Array.isArray(out) ? out : [out]));
      ctx.progress.line(`✓ workload ${id} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await schemas.dropAll();
  }
  return { ran: true, server: probe.info, results };
}
