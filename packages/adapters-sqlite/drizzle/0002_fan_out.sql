CREATE TABLE `fan_outs` (
	`sequence` integer PRIMARY KEY NOT NULL,
	`target` text NOT NULL,
	`after_rowid` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `heads` ADD `last_notify` integer;--> statement-breakpoint
ALTER TABLE `heads` ADD `last_notify_actor` text;--> statement-breakpoint
ALTER TABLE `heads` ADD `last_notify_at` integer;--> statement-breakpoint
ALTER TABLE `heads` ADD `other_notify` integer;--> statement-breakpoint
ALTER TABLE `heads` ADD `other_notify_at` integer;