-- Snapshots taken before this migration left a profile without a rating unranked. Rank it as the
-- live rule does (and as snapshots now do): 1 + the players of that GPT rated on that day. A
-- ranking under an algorithm was stored exactly for the rated players, so they are counted by it.
WITH "day_alg" AS (
	SELECT o."game", o."playtype", o."timestamp", k."alg", count(*) FILTER (WHERE o."rankings" ? k."alg")::int AS "rated"
	FROM "game_stats_snapshots" o CROSS JOIN LATERAL jsonb_object_keys(o."ratings") AS k("alg")
	GROUP BY 1, 2, 3, 4
),
"day" AS (
	SELECT o."game", o."playtype", o."timestamp", count(*)::int AS "profiles",
		max((SELECT max((e.value ->> 'outOf')::int) FROM jsonb_each(o."rankings") e)) AS "out_of"
	FROM "game_stats_snapshots" o
	GROUP BY 1, 2, 3
),
"missing" AS (
	SELECT s."user_id", s."game", s."playtype", s."timestamp",
		jsonb_object_agg(k."alg", jsonb_build_object('ranking', da."rated" + 1, 'outOf', coalesce(d."out_of", d."profiles"))) AS "added"
	FROM "game_stats_snapshots" s
	CROSS JOIN LATERAL jsonb_object_keys(s."ratings") AS k("alg")
	JOIN "day_alg" da ON da."game" = s."game" AND da."playtype" = s."playtype" AND da."timestamp" = s."timestamp" AND da."alg" = k."alg"
	JOIN "day" d ON d."game" = s."game" AND d."playtype" = s."playtype" AND d."timestamp" = s."timestamp"
	WHERE NOT s."rankings" ? k."alg"
	GROUP BY 1, 2, 3, 4
)
UPDATE "game_stats_snapshots" s SET "rankings" = s."rankings" || m."added"
FROM "missing" m
WHERE m."user_id" = s."user_id" AND m."game" = s."game" AND m."playtype" = s."playtype" AND m."timestamp" = s."timestamp";--> statement-breakpoint
UPDATE "game_stats_snapshots" s SET "ranking" = d."rated" + 1
FROM (
	SELECT "game", "playtype", "timestamp", count("ranking")::int AS "rated"
	FROM "game_stats_snapshots"
	GROUP BY 1, 2, 3
) d
WHERE s."ranking" IS NULL AND d."game" = s."game" AND d."playtype" = s."playtype" AND d."timestamp" = s."timestamp";--> statement-breakpoint
ALTER TABLE "game_stats_snapshots" ALTER COLUMN "ranking" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "scores_user_gpt_untimed_idx" ON "scores" USING btree ("user_id","game","playtype","time_added","score_id") WHERE "scores"."time_achieved" IS NULL;
