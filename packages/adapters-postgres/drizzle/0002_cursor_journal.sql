CREATE TABLE "__session_state__"."cursor_journal" (
	"position" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "__session_state__"."cursor_journal_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"watcher" text COLLATE "C" NOT NULL,
	"target" text COLLATE "C" NOT NULL,
	"type" text NOT NULL,
	"reason" text,
	"via" text,
	"acked" bigint NOT NULL,
	"notified" bigint NOT NULL,
	"material" bigint NOT NULL,
	"recorded_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cursor_journal_pair" ON "__session_state__"."cursor_journal" USING btree ("watcher","target","position");--> statement-breakpoint
CREATE INDEX "cursor_journal_recorded_at" ON "__session_state__"."cursor_journal" USING btree ("recorded_at");