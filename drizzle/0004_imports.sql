CREATE TABLE "class_achievements" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"class_set" text NOT NULL,
	"class_old_value" text,
	"class_value" text NOT NULL,
	"time_achieved" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_locks" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"heartbeat" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"import_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"import_type" text NOT NULL,
	"user_intent" boolean NOT NULL,
	"status" text NOT NULL,
	"progress" text,
	"input" text,
	"game" text,
	"id_strings" text[] DEFAULT '{}'::text[] NOT NULL,
	"score_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_sessions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"class_deltas" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"goal_info" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quest_info" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure" jsonb,
	"time_queued" bigint NOT NULL,
	"time_started" bigint,
	"time_finished" bigint
);
--> statement-breakpoint
CREATE TABLE "orphan_scores" (
	"orphan_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"import_type" text NOT NULL,
	"data" jsonb NOT NULL,
	"context" jsonb NOT NULL,
	"err_msg" text NOT NULL,
	"time_inserted" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"name" text NOT NULL,
	"desc" text,
	"calculated_data" jsonb NOT NULL,
	"highlighted" boolean DEFAULT false NOT NULL,
	"time_inserted" bigint NOT NULL,
	"time_started" bigint NOT NULL,
	"time_ended" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scores" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "class_achievements" ADD CONSTRAINT "class_achievements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_locks" ADD CONSTRAINT "import_locks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orphan_scores" ADD CONSTRAINT "orphan_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_achievements_gpt_time_idx" ON "class_achievements" USING btree ("game","playtype","time_achieved");--> statement-breakpoint
CREATE INDEX "class_achievements_user_idx" ON "class_achievements" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "imports_user_finished_idx" ON "imports" USING btree ("user_id","time_finished");--> statement-breakpoint
CREATE INDEX "orphan_scores_user_idx" ON "orphan_scores" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "orphan_scores_game_idx" ON "orphan_scores" USING btree ("game");--> statement-breakpoint
CREATE INDEX "sessions_user_gpt_time_idx" ON "sessions" USING btree ("user_id","game","playtype","time_ended");--> statement-breakpoint
ALTER TABLE "scores" ADD CONSTRAINT "scores_session_id_sessions_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("session_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scores_session_idx" ON "scores" USING btree ("session_id");