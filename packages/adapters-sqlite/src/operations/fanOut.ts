// A record on a target with many watchers: its event, head and a durable `fan_outs` row commit
// in the append's transaction, then the cursors see it in pages of their own, in cursor order,
// while the store holds its other operations, so the result is what one transaction would give.
// A fan-out a crash cut short is finished at the next start, before the restart scan.
import { CURSOR_FIELDS, decodeStoredCursors } from '@session-state/adapters-sql-common';
import { asSequence, planAppend, type AppendCommand, type AppendPlan, type CursorRow, type Notice, type Sequence } from '@session-state/domain';

import { writeJournal } from './journal.js';
import { cursorParams, moveCursor } from '../statements.js';
import type { StoreDb } from '../db/storeDb.js';
import { nextTurn } from '../worker/walBound.js';

/** A record on a target with more cursors than this steps them in pages after its transaction. */
export const FAN_OUT_INLINE_CURSORS = 500;

/** Cursors one fan-out page steps, in its own write transaction. */
const FAN_OUT_PAGE_ROWS = 500;

/** A record whose target's cursors have not all seen it yet. */
export interface OwedFanOut {
  /** The record (its kind and actor decide whom it notifies). */
  readonly command: AppendCommand;
  readonly sequence: Sequence;
  readonly appendedAt: number;
  readonly occurredAt: string;
  /** The cursors up to this rowid have seen it. */
  afterRowid: number;
}

/** Writes an append plan's cursor rows and journal; a cursor whose material alone rose is not written (the head's notify marks hold it). */
export function writeAppendPlan(db: StoreDb, plan: AppendPlan, seedWatcher: string | undefined): void {
  const st = db.statements;
  const writes = plan.cursorWrites;
  for (let i = 0; i < writes.length; i += 1) {
    const row = writes[i] as CursorRow;
    if (row.watcher === seedWatcher) st.upsertCursor.run(cursorParams(row));
    else if (row.material === row.notified) moveCursor(st, row);
  }
  if (plan.journal.length > 0) writeJournal(db, plan.journal);
}

/** One page in its own write transaction: the next `limit` cursors see the record; the fan-out's row advances, or goes after the last page. */
function fanOutPage(db: StoreDb, owed: OwedFanOut, limit: number) {
  const st = db.statements;
  return db.client
    .transaction(() => {
      const rows = st.cursorsAfter.all({ target: owed.command.sessionKey, after: owed.afterRowid, limit });
      const last = rows[rows.length - 1];
      const after = last === undefined ? owed.afterRowid : Number(last[CURSOR_FIELDS.length]);
      const { command, sequence, appendedAt, occurredAt } = owed;
      const plan = planAppend({ command, sequence, appendedAt, occurredAt, cursorsOnTarget: decodeStoredCursors(db, 'append', rows) });
      writeAppendPlan(db, plan, undefined);
      const done = rows.length < limit;
      if (done) st.deleteFanOut.run({ sequence });
      else st.advanceFanOut.run({ sequence, after });
      return { notices: plan.notices, done, after };
    })
    .immediate();
}

/** Runs an owed fan-out page by page, each in a turn of its own; a page that fails ends it (the next start finishes it). */
export async function fanOut(db: StoreDb, owed: OwedFanOut): Promise<Notice[]> {
  const notices: Notice[] = [];
  for (;;) {
    await nextTurn();
    let page: ReturnType<typeof fanOutPage>;
    try {
      page = fanOutPage(db, owed, FAN_OUT_PAGE_ROWS);
    } catch {
      return notices;
    }
    owed.afterRowid = page.after;
    for (const notice of page.notices) notices.push(notice);
    if (page.done) return notices;
  }
}

/** Finishes every fan-out a crash left owed (their notices are the restart scan's to queue). */
export async function finishOwedFanOuts(db: StoreDb): Promise<void> {
  const st = db.statements;
  for (const [sequence, target, after, kind, actorType, actor, appendedAt, occurredAt] of st.owedFanOuts.all({})) {
    // Its event is gone (its session deleted, or pruned): what it owed went with it.
    if (kind === null || typeof target !== 'string') {
      st.deleteFanOut.run({ sequence: sequence as number });
      continue;
    }
    // What planAppend reads of the record: its target, kind and actor.
    const command = { sessionKey: target, kind, actorType, summary: '', onlyIfWatched: false, ...(typeof actor === 'string' ? { actorSessionKey: actor } : {}) } as AppendCommand;
    await fanOut(db, { command, sequence: asSequence(sequence as number), appendedAt: appendedAt as number, occurredAt: String(occurredAt), afterRowid: after as number });
  }
}
