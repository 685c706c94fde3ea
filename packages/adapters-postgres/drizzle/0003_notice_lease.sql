ALTER TABLE "__session_state__"."cursor_journal" ADD COLUMN "taken_until" bigint;--> statement-breakpoint
ALTER TABLE "__session_state__"."cursors" ADD COLUMN "taken_until" bigint;--> statement-breakpoint
DROP INDEX "__session_state__"."cursors_lagging";--> statement-breakpoint
CREATE INDEX "cursors_lagging" ON "__session_state__"."cursors" USING btree ("watcher","target") INCLUDE ("acked","notified","material","taken_until") WHERE "material" > "acked";
