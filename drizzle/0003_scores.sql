CREATE TABLE "personal_bests" (
	"user_id" integer NOT NULL,
	"chart_id" text NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"song_id" integer NOT NULL,
	"is_primary" boolean NOT NULL,
	"score" double precision NOT NULL,
	"percent" double precision NOT NULL,
	"lamp_index" smallint NOT NULL,
	"grade_index" smallint NOT NULL,
	"score_data" jsonb NOT NULL,
	"calculated_data" jsonb NOT NULL,
	"composed_from" jsonb NOT NULL,
	"time_achieved" bigint,
	"highlighted" boolean DEFAULT false NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"out_of" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "personal_bests_user_id_chart_id_pk" PRIMARY KEY("user_id","chart_id")
);
--> statement-breakpoint
CREATE TABLE "scores" (
	"score_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"chart_id" text NOT NULL,
	"song_id" integer NOT NULL,
	"is_primary" boolean NOT NULL,
	"score" double precision NOT NULL,
	"percent" double precision NOT NULL,
	"lamp_index" smallint NOT NULL,
	"grade_index" smallint NOT NULL,
	"score_data" jsonb NOT NULL,
	"calculated_data" jsonb NOT NULL,
	"score_meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"time_achieved" bigint,
	"time_added" bigint NOT NULL,
	"service" text NOT NULL,
	"import_type" text NOT NULL,
	"import_id" text,
	"comment" text,
	"highlighted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_bests" ADD CONSTRAINT "personal_bests_chart_id_charts_chart_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."charts"("chart_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scores" ADD CONSTRAINT "scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scores" ADD CONSTRAINT "scores_chart_id_charts_chart_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."charts"("chart_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pbs_chart_rank_idx" ON "personal_bests" USING btree ("chart_id","rank");--> statement-breakpoint
CREATE INDEX "pbs_gpt_chart_idx" ON "personal_bests" USING btree ("game","playtype","chart_id");--> statement-breakpoint
CREATE INDEX "pbs_user_gpt_idx" ON "personal_bests" USING btree ("user_id","game","playtype");--> statement-breakpoint
CREATE INDEX "scores_user_gpt_time_idx" ON "scores" USING btree ("user_id","game","playtype","time_achieved");--> statement-breakpoint
CREATE INDEX "scores_chart_user_idx" ON "scores" USING btree ("chart_id","user_id");--> statement-breakpoint
CREATE INDEX "scores_import_idx" ON "scores" USING btree ("import_id");