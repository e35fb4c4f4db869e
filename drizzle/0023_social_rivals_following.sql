CREATE TABLE "follows" (
	"user_id" integer NOT NULL,
	"followed_id" integer NOT NULL,
	"since" bigint NOT NULL,
	CONSTRAINT "follows_user_id_followed_id_pk" PRIMARY KEY("user_id","followed_id")
);
--> statement-breakpoint
CREATE TABLE "rivals" (
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"rival_id" integer NOT NULL,
	"since" bigint NOT NULL,
	CONSTRAINT "rivals_user_id_game_playtype_rival_id_pk" PRIMARY KEY("user_id","game","playtype","rival_id")
);
--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_followed_id_users_id_fk" FOREIGN KEY ("followed_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rivals" ADD CONSTRAINT "rivals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rivals" ADD CONSTRAINT "rivals_rival_id_users_id_fk" FOREIGN KEY ("rival_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follows_followed_idx" ON "follows" USING btree ("followed_id");--> statement-breakpoint
CREATE INDEX "rivals_challengers_idx" ON "rivals" USING btree ("rival_id","game","playtype");--> statement-breakpoint
CREATE INDEX "class_achievements_time_idx" ON "class_achievements" USING btree ("time_achieved");--> statement-breakpoint
CREATE INDEX "sessions_started_idx" ON "sessions" USING btree ("time_started");--> statement-breakpoint
CREATE INDEX "sessions_gpt_started_idx" ON "sessions" USING btree ("game","playtype","time_started");--> statement-breakpoint
CREATE INDEX "sessions_user_started_idx" ON "sessions" USING btree ("user_id","time_started");