CREATE TABLE "goal_subs" (
	"user_id" integer NOT NULL,
	"goal_id" text NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"achieved" boolean NOT NULL,
	"time_achieved" bigint,
	"last_interaction" bigint,
	"progress" double precision,
	"progress_human" text NOT NULL,
	"out_of" double precision NOT NULL,
	"out_of_human" text NOT NULL,
	"was_instantly_achieved" boolean NOT NULL,
	"was_assigned_standalone" boolean NOT NULL,
	CONSTRAINT "goal_subs_user_id_goal_id_pk" PRIMARY KEY("user_id","goal_id")
);
--> statement-breakpoint
CREATE TABLE "quest_subs" (
	"user_id" integer NOT NULL,
	"quest_id" text NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"achieved" boolean NOT NULL,
	"time_achieved" bigint,
	"last_interaction" bigint,
	"progress" integer NOT NULL,
	"was_instantly_achieved" boolean NOT NULL,
	CONSTRAINT "quest_subs_user_id_quest_id_pk" PRIMARY KEY("user_id","quest_id")
);
--> statement-breakpoint
ALTER TABLE "goal_subs" ADD CONSTRAINT "goal_subs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goal_subs" ADD CONSTRAINT "goal_subs_goal_id_goals_goal_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("goal_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quest_subs" ADD CONSTRAINT "quest_subs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quest_subs" ADD CONSTRAINT "quest_subs_quest_id_quests_quest_id_fk" FOREIGN KEY ("quest_id") REFERENCES "public"."quests"("quest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goal_subs_user_gpt_idx" ON "goal_subs" USING btree ("user_id","game","playtype");--> statement-breakpoint
CREATE INDEX "goal_subs_goal_idx" ON "goal_subs" USING btree ("goal_id");--> statement-breakpoint
CREATE INDEX "goal_subs_gpt_achieved_idx" ON "goal_subs" USING btree ("game","playtype","time_achieved" DESC NULLS LAST) WHERE "goal_subs"."achieved" AND NOT "goal_subs"."was_instantly_achieved";--> statement-breakpoint
CREATE INDEX "goal_subs_gpt_raised_idx" ON "goal_subs" USING btree ("game","playtype","last_interaction" DESC NULLS LAST) WHERE NOT "goal_subs"."achieved" AND "goal_subs"."last_interaction" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "quest_subs_user_gpt_idx" ON "quest_subs" USING btree ("user_id","game","playtype");--> statement-breakpoint
CREATE INDEX "quest_subs_quest_idx" ON "quest_subs" USING btree ("quest_id");--> statement-breakpoint
CREATE INDEX "quest_subs_gpt_achieved_idx" ON "quest_subs" USING btree ("game","playtype","time_achieved" DESC NULLS LAST) WHERE "quest_subs"."achieved" AND NOT "quest_subs"."was_instantly_achieved";--> statement-breakpoint
CREATE INDEX "quest_subs_gpt_raised_idx" ON "quest_subs" USING btree ("game","playtype","last_interaction" DESC NULLS LAST) WHERE NOT "quest_subs"."achieved" AND "quest_subs"."last_interaction" IS NOT NULL;