DROP INDEX `cursors_lagging`;--> statement-breakpoint
ALTER TABLE `cursors` ADD `ambient` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `cursors_lagging` ON `cursors` (`watcher`,`target`,`acked`,`notified`,`material`,`taken_until`,`ambient`) WHERE "cursors"."material" > "cursors"."acked";--> statement-breakpoint
ALTER TABLE `cursor_journal` ADD `ambient` integer DEFAULT 0 NOT NULL;