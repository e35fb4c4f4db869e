CREATE TABLE "chart_rankings" (
	"chart_id" text PRIMARY KEY NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"players" integer DEFAULT 0 NOT NULL,
	"dirty_since" bigint
);
--> statement-breakpoint
ALTER TABLE "chart_rankings" ADD CONSTRAINT "chart_rankings_chart_id_charts_chart_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."charts"("chart_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD COLUMN "rank_order" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The ranking key's first value, as pbOrderValue computes it: ITG's pbOrder (a clear: 100 + score;
-- a fail: survivedPercent, else 0); every other GPT orders by percent (jubeat's pbOrder is percent too).
UPDATE "personal_bests" SET "rank_order" = CASE
	WHEN "game" = 'itg' AND "score_data" ->> 'lamp' <> 'FAILED' THEN 100 + "score"
	WHEN "game" = 'itg' THEN CASE WHEN jsonb_typeof("score_data" -> 'optional' -> 'survivedPercent') = 'number' THEN ("score_data" -> 'optional' ->> 'survivedPercent')::double precision ELSE 0 END
	ELSE "percent"
END;--> statement-breakpoint
-- Every chart with PBs gets its player count; stored ranks were kept exact until now, so none is dirty.
INSERT INTO "chart_rankings" ("chart_id", "game", "playtype", "players")
	SELECT "chart_id", min("game"), min("playtype"), count(*)::int FROM "personal_bests" GROUP BY "chart_id";--> statement-breakpoint
DROP INDEX "pbs_gpt_popular_idx";--> statement-breakpoint
ALTER TABLE "personal_bests" DROP COLUMN "out_of";--> statement-breakpoint
CREATE INDEX "chart_rankings_popular_idx" ON "chart_rankings" USING btree ("game","playtype","players" DESC NULLS LAST,"chart_id");--> statement-breakpoint
CREATE INDEX "chart_rankings_dirty_idx" ON "chart_rankings" USING btree ("dirty_since") WHERE "chart_rankings"."dirty_since" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "pbs_chart_order_idx" ON "personal_bests" USING btree ("chart_id","rank_order" DESC NULLS LAST,"score" DESC NULLS LAST,"rank_time","user_id");
