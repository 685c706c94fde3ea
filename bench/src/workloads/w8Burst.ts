// Workload 8: 100,000 `record` calls issued in one tick, unawaited (a backlog replayed), against raw
// bounded transactions with a turn between them; the target is the longest event-loop block.
import { APPEND_BATCH_BOUNDS } from '@session-state/app';
import type { StateStore } from '@session-state/domain';

import { openLibraryStore, startOnStore } from '../library/facade.js';
import { measureBurst, msSince, turn } from '../harness/measure.js';
import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { openRawDb, rawAppender, type RawRecord } from '../raw/rawDb.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey } from './setup.js';
import { BLOCK_LIMIT_MS, blockCheck, totalRow } from './w5Prune.js';

function spread(ms: readonly number[]): { max: number; median: number; over: number; count: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { max: sorted[sorted.length - 1] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, over: sorted.filter((x) => x > BLOCK_LIMIT_MS).length, count: sorted.length };
}

export async function w8Burst(ctx: BenchContext): Promise<WorkloadResult> {
  const n = ctx.sizes.burst;
  const sessions = ctx.sizes.sessions;
  const title = `${n.toLocaleString('en-US')} records issued in one tick, unawaited`;
  ctx.progress.update(`8 ${title}: library`, 0, 2);
  const libTxMs: number[] = [];
  // Room for the whole burst: no prune starts inside the measured run.
  const store = openLibraryStore(ctx.tempDb('w8-library'));
  // Every append call (the whole SQLite transaction) timed.
  const append: StateStore['append'] = (batch) => {
    const t0 = process.hrtime.bigint();
    const outcomes = store.append(batch);
    libTxMs.push(msSince(t0));
    return outcomes;
  };
  const awareness = await startOnStore({ ...store, append }, { maxRows: 2 * n });
  const lib = await measureBurst(() => Promise.all(Array.from({ length: n }, (_, i) => awareness.record(humanTurn(targetKey(i % sessions)))))).finally(() => awareness.close());
  let previous = 0;
  for (const result of lib.result) {
    expectRecorded(result, 'library burst');
    const sequence = result.ok && 'event' in result ? result.event.sequence : 0;
    if (sequence <= previous) throw new Error(`library burst: sequence ${sequence} after ${previous}, not in call order`);
    previous = sequence;
  }

  ctx.progress.update(`8 ${title}: raw`, 1, 2);
  const raw = openRawDb(ctx.tempDb('w8-raw'));
  const perTx = APPEND_BATCH_BOUNDS.maxRequests;
  const rawTxMs: number[] = [];
  const rawAppend = rawAppender(raw);
  // Nested in this transaction, each append runs as a savepoint, as in the store's batch.
  const appendMany = raw.client.transaction((records: readonly RawRecord[], now: number) => {
    for (const record of records) rawAppend(record, now);
  });
  const base = await measureBurst(async () => {
    const records = Array.from({ length: n }, (_, i) => rawHumanTurn(targetKey(i % sessions)));
    await Promise.resolve();
    for (let from = 0; from < n; from += perTx) {
      if (from > 0) await turn();
      const t0 = process.hrtime.bigint();
      appendMany.immediate(records.slice(from, from + perTx), Date.now());
      rawTxMs.push(msSince(t0));
    }
    return n;
  }).finally(() => raw.client.close());

  const [libTx, rawTx] = [spread(libTxMs), spread(rawTxMs)];
  return {
    id: '8',
    title,
    sides: [totalRow('library', 'record × n, unawaited (ops/s)', n, lib), totalRow('raw', `${perTx} appends per tx (ops/s)`, n, base)],
    checks: [
      blockCheck(lib, base, ' from the appends'),
      {
        target: `library: no append transaction above ${BLOCK_LIMIT_MS} ms`,
        measured: `${libTx.max.toFixed(1)} ms longest of ${libTx.count}, ${libTx.over} above (raw ${rawTx.max.toFixed(1)} ms longest of ${rawTx.count}, ${rawTx.over} above)`,
        met: libTx.max <= BLOCK_LIMIT_MS,
      },
    ],
    latencyComparable: false,
    notes: [
      `8: the caller's own loop issuing the calls took ${lib.issueMs.toFixed(0)} ms (raw: building the inputs, ${base.issueMs.toFixed(0)} ms); ` +
        `after it, in the issuing turn ${lib.issuingTurnExtraMs.toFixed(1)} ms (raw ${base.issuingTurnExtraMs.toFixed(1)} ms), the longest later turn ${lib.maxBlockAfterMs.toFixed(1)} ms (raw ${base.maxBlockAfterMs.toFixed(1)} ms); ` +
        `median append transaction ${libTx.median.toFixed(1)} ms (raw ${rawTx.median.toFixed(1)} ms).`,
    ],
  };
}
