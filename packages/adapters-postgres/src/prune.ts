// One bounded batch of retention in one transaction: events older than the age limit, then the
// lowest sequences beyond the row cap, prune watermarks raised over what went, and cursors idle
// beyond the age limit expired. Rows another gateway's prune has locked are skipped, so two
// gateways pruning at once share the work instead of waiting on each other.
import type { CursorPair, PruneBatch, PruneRequest } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import { signalRemovedCursors } from './signalRemovedCursors';
import type { StoreDb } from './storeDb';
import { inTransaction, NO_COMMIT_CHECK, run } from './transaction';

/** Each session's highest sequence among deleted [sequence, sessionKey] rows. */
function highestPerSession(rows: readonly (readonly unknown[])[], into: Map<string, number>): void {
  for (const row of rows) {
    const sequence = row[0] as number;
    const sessionKey = row[1] as string;
    const before = into.get(sessionKey);
    if (before === undefined || sequence > before) into.set(sessionKey, sequence);
  }
}

export async function prune(db: StoreDb, request: PruneRequest): Promise<PruneBatch> {
  const st = db.statements;
  const { now, maxAgeMs, maxRows, batchSize } = request;
  // A non-finite cutoff (an infinite age limit) prunes nothing by age and expires no cursor.
  const cutoff = now - maxAgeMs;
  const finite = Number.isFinite(cutoff);
  const byAge = finite && batchSize > 0;
  return inTransaction(db, async (client) => {
    const highest = new Map<string, number>();

    // --- age: the oldest appends first ---
    const aged = byAge ? await run(client, st.deleteAgedEvents, [cutoff, batchSize]) : [];
    highestPerSession(aged, highest);

    // --- row cap: the lowest sequences (the earliest appends) beyond maxRows ---
    const [counted] = await run(client, st.countEvents, []);
    let total = Number(counted?.[0] ?? 0);
    const budget = batchSize - aged.length;
    const excess = total - maxRows;
    let capped = 0;
    if (budget > 0 && excess > 0) {
      const lowest = await run(client, st.deleteLowestEvents, [Math.min(budget, excess)]);
      highestPerSession(lowest, highest);
      capped = lowest.length;
      total -= capped;
    }

    // --- prune watermarks: raised in the same transaction, never lowered, in key order ---
    if (highest.size > 0) {
      const keys = [...highest.keys()].sort();
      await run(client, st.lockHeads, [keys]);
      await run(client, st.raisePruneWatermarks, [keys, keys.map((key) => highest.get(key) as number)]);
    }

    // --- idle cursors ---
    const expired: CursorPair[] = byAge ? toSortedPairs(await run(client, st.expireIdleCursors, [cutoff, batchSize])) : [];
    await signalRemovedCursors(db, client, expired);

    // --- anything left? ---
    const agedLeft = finite && (await run(client, st.agedLeft, [cutoff])).length > 0;
    const idleLeft = finite && (await run(client, st.idleLeft, [cutoff])).length > 0;
    return { eventsDeleted: aged.length + capped, expiredCursors: expired, done: !agedLeft && !idleLeft && total <= maxRows };
  }, NO_COMMIT_CHECK);
}
