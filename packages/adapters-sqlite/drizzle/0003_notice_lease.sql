DROP INDEX `cursors_lagging`;--> statement-breakpoint
ALTER TABLE `cursors` ADD `taken_until` integer;--> statement-breakpoint
CREATE INDEX `cursors_lagging` ON `cursors` (`watcher`,`target`,`acked`,`notified`,`material`,`taken_until`) WHERE "cursors"."material" > "cursors"."acked";--> statement-breakpoint
ALTER TABLE `cursor_journal` ADD `taken_until` integer;