CREATE TABLE "game_stats_snapshots" (
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"classes" jsonb NOT NULL,
	"ratings" jsonb NOT NULL,
	"playcount" integer NOT NULL,
	"ranking" integer,
	"rankings" jsonb NOT NULL,
	CONSTRAINT "game_stats_snapshots_user_id_game_playtype_timestamp_pk" PRIMARY KEY("user_id","game","playtype","timestamp")
);
--> statement-breakpoint
CREATE TABLE "pb_ratings" (
	"user_id" integer NOT NULL,
	"chart_id" text NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"alg" text NOT NULL,
	"value" double precision NOT NULL,
	"is_primary" boolean NOT NULL,
	CONSTRAINT "pb_ratings_user_id_chart_id_alg_pk" PRIMARY KEY("user_id","chart_id","alg")
);
--> statement-breakpoint
CREATE TABLE "ugpt_settings" (
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"preferred_score_alg" text,
	"preferred_session_alg" text,
	"preferred_profile_alg" text,
	"stats" jsonb NOT NULL,
	CONSTRAINT "ugpt_settings_user_id_game_playtype_pk" PRIMARY KEY("user_id","game","playtype")
);
--> statement-breakpoint
ALTER TABLE "game_stats_snapshots" ADD CONSTRAINT "game_stats_snapshots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pb_ratings" ADD CONSTRAINT "pb_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pb_ratings" ADD CONSTRAINT "pb_ratings_chart_id_charts_chart_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."charts"("chart_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ugpt_settings" ADD CONSTRAINT "ugpt_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_stats_snapshots_time_idx" ON "game_stats_snapshots" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "pb_ratings_gpt_alg_value_idx" ON "pb_ratings" USING btree ("game","playtype","alg","value" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pb_ratings_user_alg_value_idx" ON "pb_ratings" USING btree ("user_id","game","playtype","alg","value" DESC NULLS LAST);