CREATE TABLE `cursor_journal` (
	`position` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`watcher` text NOT NULL,
	`target` text NOT NULL,
	`type` text NOT NULL,
	`reason` text,
	`via` text,
	`acked` integer NOT NULL,
	`notified` integer NOT NULL,
	`material` integer NOT NULL,
	`recorded_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cursor_journal_pair` ON `cursor_journal` (`watcher`,`target`,`position`);--> statement-breakpoint
CREATE INDEX `cursor_journal_recorded_at` ON `cursor_journal` (`recorded_at`);