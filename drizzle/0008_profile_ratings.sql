CREATE TABLE "profile_ratings" (
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"alg" text NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "profile_ratings_user_id_game_playtype_alg_pk" PRIMARY KEY("user_id","game","playtype","alg")
);
--> statement-breakpoint
ALTER TABLE "profile_ratings" ADD CONSTRAINT "profile_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_ratings_gpt_alg_value_idx" ON "profile_ratings" USING btree ("game","playtype","alg","value" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE INDEX "user_game_stats_gpt_user_idx" ON "user_game_stats" USING btree ("game","playtype","user_id");--> statement-breakpoint
CREATE INDEX "scores_gpt_highlighted_time_idx" ON "scores" USING btree ("game","playtype","time_achieved" DESC NULLS LAST,"time_added" DESC NULLS LAST) WHERE "scores"."highlighted";--> statement-breakpoint
INSERT INTO "profile_ratings" ("user_id", "game", "playtype", "alg", "value")
  SELECT s."user_id", s."game", s."playtype", r.key, (r.value #>> '{}')::double precision
  FROM "user_game_stats" s, jsonb_each(s."ratings") r
  WHERE jsonb_typeof(r.value) = 'number'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "pb_ratings" ("user_id", "chart_id", "game", "playtype", "alg", "value", "is_primary")
  SELECT p."user_id", p."chart_id", p."game", p."playtype", r.key, (r.value #>> '{}')::double precision, p."is_primary"
  FROM "personal_bests" p, jsonb_each(p."calculated_data") r
  WHERE jsonb_typeof(r.value) = 'number'
  ON CONFLICT DO NOTHING;
