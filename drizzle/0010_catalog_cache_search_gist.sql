CREATE TABLE "catalog_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_state_single_row" CHECK ("catalog_state"."id" = 1)
);
--> statement-breakpoint
DROP INDEX "folders_search_trgm_idx";--> statement-breakpoint
DROP INDEX "songs_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "folders_search_trgm_idx" ON "folders" USING gist ("search_text" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "songs_search_trgm_idx" ON "songs" USING gist ("search_text" gist_trgm_ops);--> statement-breakpoint
INSERT INTO "catalog_state" ("id", "version") VALUES (1, 0);