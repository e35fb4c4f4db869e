CREATE TABLE "user_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"invisible" boolean DEFAULT false NOT NULL,
	"developer_mode" boolean DEFAULT false NOT NULL,
	"advanced_mode" boolean DEFAULT false NOT NULL,
	"contentious_content" boolean DEFAULT false NOT NULL,
	"deletable_scores" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invites" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "user_credentials" ADD COLUMN "username_changed_at" bigint;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invites_created_by_idx" ON "invites" USING btree ("created_by");