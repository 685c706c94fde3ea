// Workload 13: the cross-process notice delay on one SQLite file, from just before gateway A's `record` to gateway B's
// `wake`: two facades in one process, each on its own `openSqliteStore` of the file (own connections, as two processes
// have). Raw: the append transaction on one connection to a second connection, watching the folder, seeing
// PRAGMA data_version move at the first event after it and reading the pending cursors (the mechanism's floor).
import fs from 'node:fs';
import path from 'node:path';

import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { openLibraryStore } from '../library/facade.js';
import { openRawDb, rawAppender } from '../raw/rawDb.js';
import { openRawWithPairs, watchPairs } from './appendSetup.js';
import { rawHumanTurn } from './keys.js';
import { createSignalWaiter, HEARD_TIMEOUT_MS, noticeResult, openGatewayPair, pairOf, runNoticeSides, timedNotice, type NoticeSide } from './noticeDelay.js';

function openRawSide(file: string, targets: number): NoticeSide {
  const append = rawAppender(openRawWithPairs(file, watchPairs(targets, 1)));
  const listener = openRawDb(file, { existing: true });
  const heard = createSignalWaiter('data_version change');
  const names = new Set([path.basename(file), `${path.basename(file)}-wal`]);
  let seen = listener.client.pragma('data_version', { simple: true });
  const watcher = fs.watch(path.dirname(file), (_event, name) => {
    if (name !== null && !names.has(name)) return;
    const now = listener.client.pragma('data_version', { simple: true });
    if (now === seen) return;
    seen = now;
    for (const cursor of listener.st.pendingCursors.all()) heard.signal(cursor.target);
  });
  return {
    notice: (i) => timedNotice(heard.next(pairOf(i, targets).target, HEARD_TIMEOUT_MS), async () => append(rawHumanTurn(pairOf(i, targets).target), Date.now())),
    // On the listening connection, as gateway B drains on its own: its commit moves no data_version there.
    async drain(i) {
      const { target } = pairOf(i, targets);
      for (const c of listener.st.cursorsOnTarget.all(target)) listener.st.updateCursor.run(c.material, c.material, c.material, Date.now(), c.watcher, c.target);
    },
    strays: heard.strays,
    close: async () => {
      watcher.close();
      listener.client.close();
    },
  };
}

export async function w13NoticeDelay(ctx: BenchContext): Promise<WorkloadResult> {
  const { sessions: targets, notices, noticeWarmup } = ctx.sizes;
  const title = `cross-process notice delay on one SQLite file, A's record → B's wake (${targets} watched targets)`;
  ctx.progress.update('13: set-up', 0, 1);
  const file = ctx.tempDb('w13-library');
  const library = await openGatewayPair(() => openLibraryStore(file), targets);
  const raw = openRawSide(ctx.tempDb('w13-raw'), targets);
  try {
    const run = { label: `13 ${title}`, n: notices, warmup: noticeWarmup, chunk: 20 };
    const stats = await runNoticeSides(run, library, raw, 'the second connection sees it', ctx.progress);
    return noticeResult('13', title, stats, { op: 'append tx → data_version moved', signals: 'data_version changes' }, library.strays() + raw.strays());
  } finally {
    await library.close();
    await raw.close();
  }
}
