// The raw prune: one transaction that raises the prune watermarks, deletes everything beyond the
// row cap (earliest first) and older than the age limit, expires idle cursors and ages the journal.
import type { RawDb } from './rawDb.js';

/** Prunes to `maxRows` / `maxAgeMs` at `now`; returns the events deleted. */
export function rawPruneAll(db: RawDb, now: number, maxAgeMs: number, maxRows: number): number {
  const { client } = db;
  const cutoff = now - maxAgeMs;
  const byAge = `SELECT sequence, session_key FROM events WHERE appended_at < @cutoff`;
  const byCap = `SELECT sequence, session_key FROM events WHERE appended_at >= @cutoff ORDER BY sequence
                  LIMIT max(0, (SELECT count(*) FROM events WHERE appended_at >= @cutoff) - @maxRows)`;
  const victims = `${byAge} UNION ALL SELECT * FROM (${byCap})`;
  return client
    .transaction((): number => {
      client
        .prepare(
          `UPDATE heads SET prune_watermark = max(prune_watermark, v.m)
             FROM (SELECT session_key, max(sequence) AS m FROM (${victims}) GROUP BY session_key) AS v
            WHERE heads.session_key = v.session_key`,
        )
        .run({ cutoff, maxRows });
      const deleted = client.prepare(`DELETE FROM events WHERE sequence IN (SELECT sequence FROM (${victims}))`).run({ cutoff, maxRows }).changes;
      const journal = client.prepare(
        `INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at) VALUES (?, ?, 'watch_ended', 'expired', NULL, ?, ?, ?, ?)`,
      );
      const expired = client.prepare('DELETE FROM cursors WHERE touched_at < ? RETURNING watcher, target, acked, notified, material').all(cutoff) as Record<string, string | number>[];
      for (const c of expired) journal.run(c['watcher'], c['target'], c['acked'], c['notified'], c['material'], now);
      client
        .prepare(
          `DELETE FROM cursor_journal WHERE recorded_at < ? AND (
             NOT EXISTS (SELECT 1 FROM cursors c WHERE c.watcher = cursor_journal.watcher AND c.target = cursor_journal.target)
             OR EXISTS (SELECT 1 FROM cursor_journal l WHERE l.watcher = cursor_journal.watcher AND l.target = cursor_journal.target AND l.position > cursor_journal.position))`,
        )
        .run(cutoff);
      return deleted;
    })
    .immediate();
}
