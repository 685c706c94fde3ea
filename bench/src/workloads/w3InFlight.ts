// Workload 3: 100 `record` calls in flight at once (many sessions recording in the same tick),
// which group commit turns into one transaction, against raw single appends (one tx each).
import { startSqlite } from '../library/facade.js';
import { runPaired } from '../harness/measure.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { openRawWithWatchers, rawRecordOp } from './appendSetup.js';
import { expectRecorded, humanTurn, targetKey } from './keys.js';

export async function w3InFlight(ctx: BenchContext): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const id = '3';
  const title = `${sizes.inFlight} records in flight at once (group commit)`;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const awareness = await startSqlite(ctx.tempDb('w3-library'));
  const raw = openRawWithWatchers(ctx, 'w3-raw', 0);
  // Issue all calls without awaiting between them, then await them all.
  const burst = async (i: number): Promise<void> => {
    const calls = [];
    for (let k = 0; k < sizes.inFlight; k++) calls.push(awareness.record(humanTurn(targetKey((i + k) % sizes.sessions))));
    for (const result of await Promise.all(calls)) expectRecorded(result, 'library record');
  };
  try {
    const stats = await runPaired(
      {
        label: `${id} ${title}`,
        n: sizes.records,
        warmup: sizes.warmup,
        chunk: sizes.chunk,
        sides: [
          { name: 'library', opsPerCall: sizes.inFlight, async: burst },
          { name: 'raw', sync: rawRecordOp(raw, sizes.sessions) },
        ],
      },
      ctx.progress,
    );
    const lib = stats['library'];
    const base = stats['raw'];
    if (lib === undefined || base === undefined) throw new Error('missing side');
    const gain = ratio(lib.opsPerSec, base.opsPerSec);
    return {
      id,
      title,
      sides: [
        { side: 'library', op: `burst of ${sizes.inFlight}`, ...lib },
        { side: 'raw', op: 'single append tx', ...base },
      ],
      checks: [{ target: 'library ≥ 3× raw single-append throughput', measured: times(gain), met: gain >= 3 }],
      latencyComparable: false,
    };
  } finally {
    await awareness.close();
    raw.client.close();
  }
}
