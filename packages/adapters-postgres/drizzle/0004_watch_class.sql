ALTER TABLE "__session_state__"."cursor_journal" ADD COLUMN "ambient" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "__session_state__"."cursors" ADD COLUMN "ambient" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
DROP INDEX "__session_state__"."cursors_lagging";--> statement-breakpoint
CREATE INDEX "cursors_lagging" ON "__session_state__"."cursors" USING btree ("watcher","target") INCLUDE ("acked","notified","material","taken_until","ambient") WHERE "material" > "acked";
