CREATE TABLE "bms_courses" (
	"md5sums" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"set" text NOT NULL,
	"playtype" text NOT NULL,
	"value" text NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charts" (
	"chart_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"song_id" integer NOT NULL,
	"difficulty" text NOT NULL,
	"level" text NOT NULL,
	"level_num" double precision NOT NULL,
	"is_primary" boolean NOT NULL,
	"versions" text[] NOT NULL,
	"data" jsonb NOT NULL,
	"in_game_ids" integer[] NOT NULL,
	"chart_hashes" text[] NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folder_charts" (
	"folder_id" text NOT NULL,
	"chart_id" text NOT NULL,
	CONSTRAINT "folder_charts_folder_id_chart_id_pk" PRIMARY KEY("folder_id","chart_id")
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"folder_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"inactive" boolean NOT NULL,
	"search_terms" text[] NOT NULL,
	"search_text" text NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "game_tables" (
	"table_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"folders" text[] NOT NULL,
	"inactive" boolean NOT NULL,
	"is_default" boolean NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goals" (
	"goal_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"name" text NOT NULL,
	"charts" jsonb NOT NULL,
	"criteria" jsonb NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questlines" (
	"questline_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"name" text NOT NULL,
	"desc" text NOT NULL,
	"quests" text[] NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quests" (
	"quest_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"name" text NOT NULL,
	"desc" text NOT NULL,
	"quest_data" jsonb NOT NULL,
	"seed_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "songs" (
	"game" text NOT NULL,
	"id" integer NOT NULL,
	"title" text NOT NULL,
	"artist" text NOT NULL,
	"alt_titles" text[] NOT NULL,
	"search_terms" text[] NOT NULL,
	"data" jsonb NOT NULL,
	"match_titles" text[] NOT NULL,
	"search_text" text NOT NULL,
	"seed_hash" text NOT NULL,
	CONSTRAINT "songs_game_id_pk" PRIMARY KEY("game","id")
);
--> statement-breakpoint
ALTER TABLE "charts" ADD CONSTRAINT "charts_song_fk" FOREIGN KEY ("game","song_id") REFERENCES "public"."songs"("game","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folder_charts" ADD CONSTRAINT "folder_charts_folder_id_folders_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("folder_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folder_charts" ADD CONSTRAINT "folder_charts_chart_id_charts_chart_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."charts"("chart_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charts_gpt_song_idx" ON "charts" USING btree ("game","playtype","song_id","difficulty");--> statement-breakpoint
CREATE INDEX "charts_in_game_ids_idx" ON "charts" USING gin ("in_game_ids");--> statement-breakpoint
CREATE INDEX "charts_hashes_idx" ON "charts" USING gin ("chart_hashes");--> statement-breakpoint
CREATE INDEX "folder_charts_chart_idx" ON "folder_charts" USING btree ("chart_id");--> statement-breakpoint
CREATE INDEX "folders_gpt_idx" ON "folders" USING btree ("game","playtype");--> statement-breakpoint
CREATE INDEX "folders_search_trgm_idx" ON "folders" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "game_tables_gpt_idx" ON "game_tables" USING btree ("game","playtype");--> statement-breakpoint
CREATE INDEX "goals_gpt_idx" ON "goals" USING btree ("game","playtype");--> statement-breakpoint
CREATE INDEX "questlines_gpt_idx" ON "questlines" USING btree ("game","playtype");--> statement-breakpoint
CREATE INDEX "quests_gpt_idx" ON "quests" USING btree ("game","playtype");--> statement-breakpoint
CREATE INDEX "songs_match_titles_idx" ON "songs" USING gin ("match_titles");--> statement-breakpoint
CREATE INDEX "songs_search_trgm_idx" ON "songs" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "songs_ddr_song_hash_idx" ON "songs" USING btree ("game",("data" ->> 'ddrSongHash'));