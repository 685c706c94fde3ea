// A pending cursor's material as its target's head row knows it (the newest notifying event and
// the newest of another actor), so a record on pending watchers writes one head row, not one per
// watcher; every cursor reader takes the greater of the stored material and that one.
import { asSequence, isSequence, kindClass, type CursorRow, type EventKind } from '@session-state/domain';

import { compileAll, p, q } from '../db/compile.js';
import { cursors, heads } from '../schema.js';
import { perDb, type StoreDb } from '../db/storeDb.js';
import { orm as drizzle } from '../db/drizzle.js';
import { queryBuilder as orm } from '../db/queryBuilder.js';

const { sql } = drizzle;

/** For expiry: a row when the target's notify marks raised this pending cursor's material at or after (`'>='`) or before (`'<'`) the cutoff. */
export function raisedByMarks(when: '>=' | '<') {
  const cmp = sql.raw(when);
  return sql`SELECT 1 FROM ${heads} AS marks WHERE marks.session_key = ${cursors.target} AND CASE WHEN ${cursors.watcher} IS marks.last_notify_actor THEN marks.other_notify > ${cursors.material} AND marks.other_notify_at ${cmp} ${p('cutoff')} ELSE marks.last_notify > ${cursors.material} AND marks.last_notify_at ${cmp} ${p('cutoff')} END`;
}

interface HeadWrite {
  readonly sessionKey: string;
  readonly head: number;
  /** 1 when the event is of a notifying kind, else 0. */
  readonly notifies: number;
  readonly actor: string | null;
  readonly at: number;
}

const notifies = sql`${p('notifies')} = 1`;
// A notifying event of another actor than the newest one's makes that newest one "other".
const newActor = sql`${notifies} AND excluded.last_notify_actor IS NOT ${heads.lastNotifyActor}`;

const statementsOf = perDb(({ client }) =>
  compileAll(client, {
    /** An append's head write (the head becomes the sequence, the prune watermark stays), moving the notify marks when the event notifies. */
    writeAppendedHead: q<HeadWrite>(
      orm
        .insert(heads)
        .values({
          sessionKey: p('sessionKey'),
          head: p('head'),
          pruneWatermark: sql`0`,
          lastNotify: sql`CASE WHEN ${notifies} THEN ${p('head')} END`,
          lastNotifyActor: sql`CASE WHEN ${notifies} THEN ${p('actor')} END`,
          lastNotifyAt: sql`CASE WHEN ${notifies} THEN ${p('at')} END`,
        })
        .onConflictDoUpdate({
          target: heads.sessionKey,
          set: {
            head: sql`excluded.head`,
            otherNotify: sql`CASE WHEN ${newActor} THEN ${heads.lastNotify} ELSE ${heads.otherNotify} END`,
            otherNotifyAt: sql`CASE WHEN ${newActor} THEN ${heads.lastNotifyAt} ELSE ${heads.otherNotifyAt} END`,
            lastNotify: sql`CASE WHEN ${notifies} THEN excluded.last_notify ELSE ${heads.lastNotify} END`,
            lastNotifyActor: sql`CASE WHEN ${notifies} THEN excluded.last_notify_actor ELSE ${heads.lastNotifyActor} END`,
            lastNotifyAt: sql`CASE WHEN ${notifies} THEN excluded.last_notify_at ELSE ${heads.lastNotifyAt} END`,
          },
        }),
    ),
    /** {sessionKey} → [lastNotify, lastNotifyActor, lastNotifyAt, otherNotify, otherNotifyAt]. */
    marksOf: q<{ sessionKey: string }>(
      orm
        .select({ last: heads.lastNotify, lastActor: heads.lastNotifyActor, lastAt: heads.lastNotifyAt, other: heads.otherNotify, otherAt: heads.otherNotifyAt })
        .from(heads)
        .where(sql`${heads.sessionKey} = ${p('sessionKey')}`),
    ),
  }),
);

/** Writes an append's head row and, for a notifying event, its notify marks. */
export function writeAppendedHead(db: StoreDb, sessionKey: string, head: number, event: { readonly kind: EventKind; readonly actorSessionKey?: string }, at: number): void {
  const notifies = kindClass(event.kind) === 'notify' ? 1 : 0;
  statementsOf(db).writeAppendedHead.run({ sessionKey, head, notifies, actor: event.actorSessionKey ?? null, at });
}

const isTime = (u: unknown): u is number => typeof u === 'number' && Number.isSafeInteger(u);

/** The target's notify marks: the newest notifying event, its actor and time, and the newest of another actor and its time. */
function marksOf(db: StoreDb, target: string) {
  const row = statementsOf(db).marksOf.get({ sessionKey: target });
  if (row === undefined) return undefined;
  // Null: no such event yet.
  const [last = 0, lastActor, lastAt = 0, other = 0, otherAt = 0] = row.map((value) => value ?? undefined);
  // Marks that are not sequences and times (a hand-edited file) raise nothing.
  if (!isSequence(last) || !isSequence(other) || !isTime(lastAt) || !isTime(otherAt)) return undefined;
  return { last, lastActor, lastAt, other, otherAt };
}

/** `rows` with each pending cursor's material raised to the newest change on its target not its watcher's, touched then. */
export function withLogMaterial(db: StoreDb, rows: readonly CursorRow[]): CursorRow[] {
  const marks = new Map<string, ReturnType<typeof marksOf>>();
  return rows.map((row) => {
    if (row.material <= row.acked) return row;
    if (!marks.has(row.target)) marks.set(row.target, marksOf(db, row.target));
    const m = marks.get(row.target);
    if (m === undefined) return row;
    const own = row.watcher === m.lastActor;
    const material = own ? m.other : m.last;
    return material > row.material ? { ...row, material: asSequence(material), touchedAt: own ? m.otherAt : m.lastAt } : row;
  });
}

/** One row as withLogMaterial gives it (undefined stays undefined). */
export function withLogMaterialOf(db: StoreDb, row: CursorRow | undefined): CursorRow | undefined {
  return row === undefined ? undefined : withLogMaterial(db, [row])[0];
}
