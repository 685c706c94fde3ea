-- Custom SQL migration file, put your code below! --
-- The lagging cursors' index, partial and covering: the restart scan and pendingNotices read it
-- alone. drizzle cannot declare INCLUDE, so this is drizzle-kit's custom migration; it is part of
-- version 1 (drizzle/versions.json), as in the first hand-written migration.
CREATE INDEX "cursors_lagging" ON "__session_state__"."cursors" USING btree ("watcher","target") INCLUDE ("acked","notified","material") WHERE "material" > "acked";
