// PostgreSQL workload 3: 100 `record` calls in flight at once, which group commit turns into one
// transaction (a savepoint per record), against raw pg single appends (one transaction each).
import { runPaired } from '../harness/measure.js';
import { ratio, times, type WorkloadResult } from '../harness/context.js';
import type { PgBenchContext } from '../postgres/context.js';
import { costNote, measureCostPair } from '../postgres/opCost.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey } from './keys.js';
import { openPgAppendSides } from './pgAppend.js';

export async function pg3InFlight(ctx: PgBenchContext): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  const id = 'pg3';
  const title = `${sizes.inFlight} records in flight at once (group commit)`;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const sides = await openPgAppendSides(ctx, 0);
  // Issue all calls without awaiting between them, then await them all.
  const burst = async (i: number): Promise<void> => {
    const calls = [];
    for (let k = 0; k < sizes.inFlight; k++) calls.push(sides.awareness.record(humanTurn(targetKey((i + k) % sizes.sessions))));
    for (const result of await Promise.all(calls)) expectRecorded(result, 'library record');
  };
  const single = async (i: number): Promise<void> => {
    await sides.rawAppend(rawHumanTurn(targetKey(i % sizes.sessions)), Date.now());
  };
  try {
    const stats = await runPaired(
      {
        label: `${id} ${title}`,
        n: sizes.records,
        warmup: sizes.warmup,
        // A whole number of bursts per chunk: a library call covers `inFlight` op indexes.
        chunk: Math.ceil(sizes.chunk / sizes.inFlight) * sizes.inFlight,
        sides: [
          { name: 'library', opsPerCall: sizes.inFlight, async: burst },
          { name: 'raw', async: single },
        ],
      },
      ctx.progress,
    );
    const lib = stats['library'];
    const base = stats['raw'];
    if (lib === undefined || base === undefined) throw new Error('missing side');
    const from = sizes.warmup + sizes.records;
    const cost = await measureCostPair(
      sizes.inFlight,
      (part) => burst(from + part * sizes.inFlight),
      async (part) => {
        for (let i = from + part * sizes.inFlight; i < from + (part + 1) * sizes.inFlight; i++) await single(i);
      },
    );
    return {
      id,
      title,
      sides: [
        { side: 'library', op: `burst of ${sizes.inFlight}`, ...lib },
        { side: 'raw', op: 'single append tx', ...base },
      ],
      checks: [],
      latencyComparable: false,
      notes: [
        `${id}: library throughput ${times(ratio(lib.opsPerSec, base.opsPerSec))} raw single appends; latency is per burst of ${sizes.inFlight} records.`,
        costNote(id, 'record', cost),
      ],
    };
  } finally {
    await sides.close();
  }
}
