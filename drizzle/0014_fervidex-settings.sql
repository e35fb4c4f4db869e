CREATE TABLE "fervidex_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"cards" text[],
	"force_static_import" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fervidex_settings" ADD CONSTRAINT "fervidex_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;