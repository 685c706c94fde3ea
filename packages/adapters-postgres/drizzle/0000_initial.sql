CREATE SEQUENCE "__session_state__"."event_sequence" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "__session_state__"."cursors" (
	"watcher" text COLLATE "C" NOT NULL,
	"target" text COLLATE "C" NOT NULL,
	"acked" bigint NOT NULL,
	"notified" bigint NOT NULL,
	"material" bigint NOT NULL,
	"touched_at" bigint NOT NULL,
	CONSTRAINT "cursors_pkey" PRIMARY KEY("watcher","target")
);
--> statement-breakpoint
CREATE TABLE "__session_state__"."events" (
	"sequence" bigint PRIMARY KEY NOT NULL,
	"session_key" text COLLATE "C" NOT NULL,
	"kind" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_session_key" text COLLATE "C",
	"summary" text NOT NULL,
	"payload" json,
	"dedupe_key" text COLLATE "C",
	"occurred_at" text NOT NULL,
	"appended_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "__session_state__"."heads" (
	"session_key" text COLLATE "C" PRIMARY KEY NOT NULL,
	"head" bigint NOT NULL,
	"prune_watermark" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cursors_target" ON "__session_state__"."cursors" USING btree ("target","watcher");--> statement-breakpoint
CREATE INDEX "cursors_touched_at" ON "__session_state__"."cursors" USING btree ("touched_at");--> statement-breakpoint
CREATE UNIQUE INDEX "events_dedupe_key_unique" ON "__session_state__"."events" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "events_session_sequence" ON "__session_state__"."events" USING btree ("session_key","sequence");--> statement-breakpoint
CREATE INDEX "events_appended_at" ON "__session_state__"."events" USING btree ("appended_at","sequence");