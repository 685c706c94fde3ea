// Head writes as the domain computes them, for the operations that lock head rows before writing
// them (delete, prune): `planHeadWrite` folds the signal-log events into each locked row and the
// results are written as given, in one statement. Appends write their head in the insert itself
// (see appendEvent in statements.ts for why).
import { asSequence, planHeadWrite, type SignalLogEvent, type SignalLogHead } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { StoreDb } from './storeDb';
import { run } from './transaction';

/** A head row as the lock statements return it: [head, pruneWatermark] from `offset`. */
export function headOfRow(row: readonly unknown[], offset = 0): SignalLogHead {
  return { head: asSequence(row[offset] as number), pruneWatermark: asSequence(row[offset + 1] as number) };
}

/** A locked head row and the signal-log events to fold into it. */
export interface HeadChange {
  readonly sessionKey: string;
  readonly locked: SignalLogHead;
  readonly events: readonly SignalLogEvent[];
}

/** Writes each changed head as planHeadWrite computes it; returns the heads after, by session. */
export async function writeHeads(db: StoreDb, client: PoolClient, changes: readonly HeadChange[]): Promise<Map<string, SignalLogHead>> {
  const after = new Map<string, SignalLogHead>();
  const written: { sessionKey: string; head: SignalLogHead }[] = [];
  for (const change of changes) {
    const write = planHeadWrite(change.locked, change.events);
    after.set(change.sessionKey, write.type === 'none' ? change.locked : write.head);
    if (write.type !== 'none') written.push({ sessionKey: change.sessionKey, head: write.head });
  }
  if (written.length > 0) {
    await run(client, db.statements.writeHeads, [
      written.map((w) => w.sessionKey),
      written.map((w) => w.head.head),
      written.map((w) => w.head.pruneWatermark),
    ]);
  }
  return after;
}
