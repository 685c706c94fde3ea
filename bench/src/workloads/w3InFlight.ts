// Workload 3: 100 `record` calls in flight at once, which group commit turns into one
// transaction, against raw single appends (one transaction each).
import { startSqlite } from '../library/facade.js';
import { runPaired, sidesOf } from '../harness/measure.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { openRawWithPairs, rawRecordOp } from './appendSetup.js';
import { expectRecorded, humanTurn, targetKey } from './keys.js';

export async function w3InFlight(ctx: BenchContext): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const title = `${sizes.inFlight} records in flight at once (group commit)`;
  ctx.progress.update('3: set-up', 0, 1);
  const awareness = await startSqlite(ctx.tempDb('w3-library'));
  const raw = openRawWithPairs(ctx, 'w3-raw', []);
  const burst = async (i: number): Promise<void> => {
    const calls = [];
    for (let k = 0; k < sizes.inFlight; k++) calls.push(awareness.record(humanTurn(targetKey((i + k) % sizes.sessions))));
    for (const result of await Promise.all(calls)) expectRecorded(result, 'library record');
  };
  try {
    const stats = await runPaired(
      {
        label: `3 ${title}`,
        n: sizes.records,
        warmup: sizes.warmup,
        chunk: sizes.chunk,
        sides: [{ name: 'library', opsPerCall: sizes.inFlight, async: burst }, { name: 'raw', sync: rawRecordOp(raw, sizes.sessions) }],
      },
      ctx.progress,
    );
    const [lib, base] = sidesOf(stats, 'library', 'raw');
    const gain = ratio(lib.opsPerSec, base.opsPerSec);
    return {
      id: '3',
      title,
      sides: [{ side: 'library', op: `burst of ${sizes.inFlight}`, ...lib }, { side: 'raw', op: 'single append tx', ...base }],
      checks: [{ target: 'library ≥ 3× raw single-append throughput', measured: times(gain), met: gain >= 3 }],
      latencyComparable: false,
    };
  } finally {
    await awareness.close();
    raw.client.close();
  }
}
