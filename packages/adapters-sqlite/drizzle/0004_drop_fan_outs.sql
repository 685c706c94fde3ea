-- Written by hand before the drop drizzle-kit generated: a record's fan-out a crash cut short is
-- finished here, as the restart scan finished it before. Each cursor after its cut that was idle
-- takes the lowest owed record that notifies it (its actor is another, its kind one of the
-- notifying kinds): a notice_raised entry and the row raised to it. A pending one needs nothing:
-- the head's notify marks already give it that material.
WITH `raised` AS (
	SELECT c.rowid AS `cursor`, min(e.`sequence`) AS `sequence`
	FROM `cursors` AS c
	JOIN `fan_outs` AS f ON f.`target` = c.`target` AND c.rowid > f.`after_rowid`
	JOIN `events` AS e ON e.`sequence` = f.`sequence`
	WHERE c.`material` <= c.`acked` AND e.`sequence` > c.`acked` AND e.`actor_session_key` IS NOT c.`watcher`
		AND e.`kind` IN ('human_direct_message', 'goal_changed', 'upstream_missing')
	GROUP BY c.rowid
)
INSERT INTO `cursor_journal` (`watcher`, `target`, `type`, `reason`, `via`, `acked`, `notified`, `material`, `recorded_at`, `taken_until`)
SELECT c.`watcher`, c.`target`, 'notice_raised', NULL, NULL, c.`acked`, r.`sequence`, r.`sequence`, e.`appended_at`, NULL
FROM `raised` AS r JOIN `cursors` AS c ON c.rowid = r.`cursor` JOIN `events` AS e ON e.`sequence` = r.`sequence`
ORDER BY r.`sequence`, c.rowid;--> statement-breakpoint
UPDATE `cursors` SET `notified` = r.`sequence`, `material` = r.`sequence`, `touched_at` = e.`appended_at`, `taken_until` = NULL
FROM (
	SELECT c.rowid AS `cursor`, min(e.`sequence`) AS `sequence`
	FROM `cursors` AS c
	JOIN `fan_outs` AS f ON f.`target` = c.`target` AND c.rowid > f.`after_rowid`
	JOIN `events` AS e ON e.`sequence` = f.`sequence`
	WHERE c.`material` <= c.`acked` AND e.`sequence` > c.`acked` AND e.`actor_session_key` IS NOT c.`watcher`
		AND e.`kind` IN ('human_direct_message', 'goal_changed', 'upstream_missing')
	GROUP BY c.rowid
) AS r JOIN `events` AS e ON e.`sequence` = r.`sequence`
WHERE `cursors`.rowid = r.`cursor`;--> statement-breakpoint
DROP TABLE `fan_outs`;
