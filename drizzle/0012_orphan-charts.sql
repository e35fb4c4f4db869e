CREATE TABLE "orphan_chart_queue" (
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"chart_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"records" jsonb NOT NULL,
	"time_added" bigint NOT NULL,
	CONSTRAINT "orphan_chart_queue_game_playtype_chart_hash_user_id_pk" PRIMARY KEY("game","playtype","chart_hash","user_id")
);
--> statement-breakpoint
ALTER TABLE "orphan_chart_queue" ADD CONSTRAINT "orphan_chart_queue_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orphan_chart_queue_user_idx" ON "orphan_chart_queue" USING btree ("user_id");