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
CREATE INDEX "sessions_user_started_idx" ON "sessions" USING btree ("user_id","time_started");--> statement-breakpoint
-- rivals: a PB's rankingData.rivalRank (src/database/pb-rank.ts RIVAL_RANK) counts its owner's
-- rivals, so a change of rivals changes every answer with the owner's PBs: notify the owner's user
-- scope, which every cached answer holding PBs lists for each PB's owner (read-scopes.ts). Deletes
-- cascaded from a deleted user or profile fire it too.
CREATE FUNCTION read_changes_rivals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM read_changes_notify(ARRAY(SELECT DISTINCT 'u:' || user_id FROM changed));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON rivals REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_rivals();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON rivals REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_rivals();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON rivals REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_rivals();
