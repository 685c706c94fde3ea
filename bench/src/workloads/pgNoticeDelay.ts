// PostgreSQL workload 7: the cross-gateway notice delay, from just before gateway A's `record` to
// gateway B's `wake`; raw: the append transaction (with `pg_notify`) to the notification on a listener.
import { openPgLibraryStore } from '../library/facade.js';
import type { WorkloadResult } from '../harness/context.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { costOfOps, COUNTED_OPS, describeQueries } from '../postgres/opCost.js';
import { channelOf, openRawGateway, rawPgDrain } from '../postgres/rawPg.js';
import { freshSchema, seedPgCursors } from '../postgres/seed.js';
import { idleCursor } from '../raw/seed.js';
import { watchPairs } from './appendSetup.js';
import { rawHumanTurn } from './keys.js';
import { createSignalWaiter, HEARD_TIMEOUT_MS, noticeResult, openGatewayPair, pairOf, runNoticeSides, timedNotice, type NoticeSide } from './noticeDelay.js';

async function openRawSide(ctx: PgBenchContext, targets: number): Promise<NoticeSide> {
  const { place, pool } = await freshSchema(ctx);
  const notifications = createSignalWaiter('notification');
  const gateway = await seedPgCursors(pool, [...watchPairs(targets, 1)].map((p) => idleCursor(p, Date.now())))
    .then(() => openRawGateway(place.url, pool, channelOf(place.schema), (target) => notifications.signal(target)))
    .catch(async (e: unknown) => {
      await pool.end();
      throw e;
    });
  return {
    notice: (i) => timedNotice(notifications.next(pairOf(i, targets).target, HEARD_TIMEOUT_MS), () => gateway.append(rawHumanTurn(pairOf(i, targets).target), Date.now())),
    async drain(i) {
      const { watcher, target } = pairOf(i, targets);
      const drained = await rawPgDrain(pool, watcher, [target], Date.now());
      if (drained !== 1) throw new Error(`raw drain found ${drained} notices, expected 1`);
    },
    strays: () => notifications.strays(),
    close: gateway.close,
  };
}

export async function pg7NoticeDelay(ctx: PgBenchContext): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  const targets = sizes.sessions;
  const title = `cross-gateway notice delay, A's record → B's wake (${targets} watched targets)`;
  ctx.progress.update('pg7: set-up', 0, 1);
  const place = freshPlace(ctx);
  const library = await openGatewayPair(() => openPgLibraryStore(place), targets);
  const raw = await openRawSide(ctx, targets).catch(async (e: unknown) => {
    await library.close();
    throw e;
  });
  try {
    const run = { label: `pg7 ${title}`, n: sizes.notices, warmup: sizes.noticeWarmup, chunk: sizes.chunk };
    const stats = await runNoticeSides(run, library, raw, 'the notification', ctx.progress);
    // The queries of the delay path: ops on distinct targets, drained only after the pass.
    const from = sizes.noticeWarmup + sizes.notices;
    if (COUNTED_OPS > targets) throw new Error('the cost pass needs a distinct target per op');
    const cost = await costOfOps(from, library.notice, raw.notice);
    for (let i = from; i < from + COUNTED_OPS; i++) {
      await library.drain(i);
      await raw.drain(i);
    }
    return noticeResult('pg7', title, stats, { op: 'append tx → LISTEN notification', signals: 'notifications', where: ' (loopback)' }, library.strays() + raw.strays(), [
      `pg7 per notice (a separate pass of ${cost.library.ops} per side, both gateways' queries): library ${describeQueries(cost.library)}; raw ${describeQueries(cost.raw)}.`,
    ]);
  } finally {
    await library.close();
    await raw.close();
  }
}
