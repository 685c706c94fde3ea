// The PostgreSQL column: when the server answers, workloads pg1–pg9 (library over the PostgreSQL
// store against raw pg, each side on a fresh schema dropped at the end); else why it was skipped.
import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { createPgSchemas, probePgServer, redactPgUrl, type PgBenchContext, type PgServerInfo } from '../postgres/server.js';
import { pgSizes } from '../sizes.js';
import { pg1SingleAppend, pg2FanOut, pg3InFlight } from './w1SingleAppend.js';
import { pg4StatusReads } from './w4StatusReads.js';
import { pg5mPruneAtScale, pg5Prune } from './w5Prune.js';
import { pg6RestartScan } from './w6RestartScan.js';
import { pg7NoticeDelay } from './noticeDelay.js';
import { pg8Gateways } from './pgGateways.js';
import { pg9McpNoticeDelay } from './mcpNoticeDelay.js';

type PgWorkload = (ctx: PgBenchContext) => Promise<WorkloadResult | WorkloadResult[]>;

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
  ['pg9', pg9McpNoticeDelay],
];

export type PgColumn =
  | { readonly ran: true; readonly server: PgServerInfo; readonly results: readonly WorkloadResult[] }
  | { readonly ran: false; readonly url: string; readonly reason: string };

export async function runPgColumn(ctx: BenchContext, url: string, selected: (id: string) => boolean, runOne: (id: string, run: () => Promise<WorkloadResult | WorkloadResult[]>) => Promise<WorkloadResult[]>): Promise<PgColumn> {
  const probe = await probePgServer(url);
  if (!probe.ok) return { ran: false, url: redactPgUrl(url), reason: probe.reason };
  const schemas = createPgSchemas(url);
  const pgCtx: PgBenchContext = { ...ctx, pg: { url, schemas, sizes: pgSizes(ctx.sizes, ctx.quick) } };
  const results: WorkloadResult[] = [];
  try {
    for (const [id, run] of PG_WORKLOADS) if (selected(id)) results.push(...(await runOne(id, () => run(pgCtx))));
  } finally {
    await schemas.dropAll();
  }
  return { ran: true, server: probe.info, results };
}
