CREATE TABLE "recent_folder_views" (
	"user_id" integer NOT NULL,
	"folder_id" text NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"last_viewed" bigint NOT NULL,
	CONSTRAINT "recent_folder_views_user_id_folder_id_pk" PRIMARY KEY("user_id","folder_id")
);
--> statement-breakpoint
ALTER TABLE "recent_folder_views" ADD CONSTRAINT "recent_folder_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recent_folder_views" ADD CONSTRAINT "recent_folder_views_folder_id_folders_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("folder_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recent_folder_views_user_gpt_idx" ON "recent_folder_views" USING btree ("user_id","game","playtype","last_viewed");