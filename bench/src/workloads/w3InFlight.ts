// Workload 3: 100 `record` calls in flight at once, which group commit turns into one
// transaction, against raw single appends (one transaction each).
import { startSqlite } from '../library/facade.js';
import { runPaired } from '../harness/measure.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { libraryBurstOp, openRawWithPairs, rawRecordOp } from './appendSetup.js';

export async function w3InFlight(ctx: BenchContext): Promise<WorkloadResult> {
  const { inFlight, sessions, records: n, warmup, chunk } = ctx.sizes;
  const title = `${inFlight} records in flight at once (group commit)`;
  ctx.progress.update('3: set-up', 0, 1);
  const awareness = await startSqlite(ctx.tempDb('w3-library'));
  const raw = openRawWithPairs(ctx, 'w3-raw', []);
  try {
    const sides = [{ name: 'library', opsPerCall: inFlight, async: libraryBurstOp(awareness, inFlight, sessions) }, { name: 'raw', sync: rawRecordOp(raw, sessions) }] as const;
    const [lib, base] = await runPaired({ label: `3 ${title}`, n, warmup, chunk, sides }, ctx.progress);
    const gain = ratio(lib.opsPerSec, base.opsPerSec);
    return {
      id: '3',
      title,
      sides: [{ side: 'library', op: `burst of ${inFlight}`, ...lib }, { side: 'raw', op: 'single append tx', ...base }],
      checks: [{ target: 'library ≥ 3× raw single-append throughput', measured: times(gain), met: gain >= 3 }],
      latencyComparable: false,
    };
  } finally {
    await awareness.close();
    raw.client.close();
  }
}
