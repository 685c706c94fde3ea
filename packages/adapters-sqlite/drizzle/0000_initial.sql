CREATE TABLE `cursors` (
	`watcher` text NOT NULL,
	`target` text NOT NULL,
	`acked` integer NOT NULL,
	`notified` integer NOT NULL,
	`material` integer NOT NULL,
	`touched_at` integer NOT NULL,
	PRIMARY KEY(`watcher`, `target`)
);
--> statement-breakpoint
CREATE INDEX `cursors_target` ON `cursors` (`target`);--> statement-breakpoint
CREATE INDEX `cursors_lagging` ON `cursors` (`watcher`,`target`,`acked`,`notified`,`material`) WHERE "cursors"."material" > "cursors"."acked";--> statement-breakpoint
CREATE INDEX `cursors_touched_at` ON `cursors` (`touched_at`);--> statement-breakpoint
CREATE TABLE `events` (
	`sequence` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_key` text NOT NULL,
	`kind` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_session_key` text,
	`summary` text NOT NULL,
	`payload` text,
	`dedupe_key` text,
	`occurred_at` text NOT NULL,
	`appended_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_dedupe_key_unique` ON `events` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `events_session_sequence` ON `events` (`session_key`,`sequence`);--> statement-breakpoint
CREATE INDEX `events_appended_at` ON `events` (`appended_at`);--> statement-breakpoint
CREATE TABLE `heads` (
	`session_key` text PRIMARY KEY NOT NULL,
	`head` integer NOT NULL,
	`prune_watermark` integer DEFAULT 0 NOT NULL
);
