DROP INDEX "pbs_gpt_chart_idx";--> statement-breakpoint
DROP INDEX "pbs_user_gpt_idx";--> statement-breakpoint
DROP INDEX "scores_chart_user_idx";--> statement-breakpoint
DROP INDEX "scores_import_idx";--> statement-breakpoint
CREATE INDEX "scores_user_chart_idx" ON "scores" USING btree ("user_id","chart_id");