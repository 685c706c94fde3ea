// The append's statements on the head row's notify marks (operations/logMaterial.ts), as drizzle
// queries rendered ahead of time (render.ts).
import { p, q } from '@session-state/adapters-sql-common';

import { cursors, heads } from '../schema.js';
import { orm as drizzle } from '../db/drizzle.js';
import { queryBuilder as orm } from '../db/queryBuilder.js';

const { sql } = drizzle;

/** For expiry: a row when the target's notify marks raised this pending cursor's material at or after (`'>='`) or before (`'<'`) the cutoff. */
export function raisedByMarks(when: '>=' | '<') {
  const cmp = sql.raw(when);
  return sql`SELECT 1 FROM ${heads} AS marks WHERE marks.session_key = ${cursors.target} AND CASE WHEN ${cursors.watcher} IS marks.last_notify_actor THEN marks.other_notify > ${cursors.material} AND marks.other_notify_at ${cmp} ${p('cutoff')} ELSE marks.last_notify > ${cursors.material} AND marks.last_notify_at ${cmp} ${p('cutoff')} END`;
}

/** The head row's notify marks: the append writes them, every cursor reader reads them. */
export function headMarkQueries() {
  const notifies = sql`${p('notifies')} = 1`;
  // A notifying event of another actor than the newest one's makes that newest one "other".
  const newActor = sql`${notifies} AND excluded.last_notify_actor IS NOT ${heads.lastNotifyActor}`;
  return {
    /** An append's head write (the head becomes the sequence, the prune watermark stays), moving the notify marks when the event notifies (`notifies` 1, else 0). */
    writeAppendedHead: q<{ sessionKey: string; head: number; notifies: number; actor: string | null; at: number }>(
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
  };
}
