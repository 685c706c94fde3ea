// The raw prune: one big transaction that raises the prune watermarks, deletes everything
// beyond the row cap (earliest appended first) and older than the age limit, and expires idle
// cursors – the whole job in one synchronous block, which is what the library must avoid.
import type { RawDb } from './rawDb';

/** Prunes to `maxRows` / `maxAgeMs` at `now` in one statement batch; returns the events deleted. */
export function rawPruneAll(db: RawDb, now: number, maxAgeMs: number, maxRows: number): number {
  const { client } = db;
  const cutoff = now - maxAgeMs;
  return client
    .transaction((): number => {
      const byAge = `SELECT sequence, session_key FROM events WHERE appended_at < @cutoff`;
      // Beyond the cap, the lowest sequences go first (AUTOINCREMENT: the earliest appended).
      const byCap = `SELECT sequence, session_key FROM events WHERE appended_at >= @cutoff
                      ORDER BY sequence
                      LIMIT max(0, (SELECT count(*) FROM events WHERE appended_at >= @cutoff) - @maxRows)`;
      const victims = `${byAge} UNION ALL SELECT * FROM (${byCap})`;
      client
        .prepare(
          `UPDATE heads SET prune_watermark = max(prune_watermark, v.m)
             FROM (SELECT session_key, max(sequence) AS m FROM (${victims}) GROUP BY session_key) AS v
            WHERE heads.session_key = v.session_key`,
        )
        .run({ cutoff, maxRows });
      const deleted = client
        .prepare(`DELETE FROM events WHERE sequence IN (SELECT sequence FROM (${victims}))`)
        .run({ cutoff, maxRows }).changes;
      client.prepare('DELETE FROM cursors WHERE touched_at < ?').run(cutoff);
      return deleted;
    })
    .immediate();
}
