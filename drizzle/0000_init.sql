CREATE TABLE "api_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"name" text NOT NULL,
	"author" integer NOT NULL,
	"requested_permissions" jsonb NOT NULL,
	"redirect_uri" text,
	"webhook_uri" text,
	"api_key_format" text,
	"api_key_filename" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"key_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"identifier" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"from_api_client" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "api_keys_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" text,
	"created_on" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_game_stats" (
	"user_id" integer NOT NULL,
	"game" text NOT NULL,
	"playtype" text NOT NULL,
	"ratings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"classes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_updated" bigint NOT NULL,
	CONSTRAINT "user_game_stats_user_id_game_playtype_pk" PRIMARY KEY("user_id","game","playtype")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"notif_id" text PRIMARY KEY NOT NULL,
	"sent_to" integer NOT NULL,
	"title" text NOT NULL,
	"body" jsonb NOT NULL,
	"sent_at" bigint NOT NULL,
	"read" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"code" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"consumed_by" integer,
	"consumed_at" bigint
);
--> statement-breakpoint
CREATE TABLE "login_sessions" (
	"sid" text PRIMARY KEY NOT NULL,
	"sess" jsonb NOT NULL,
	"expire" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_credentials" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_lowercase" text NOT NULL,
	"password_hash" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"sessions_valid_after" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"username_lowercase" text NOT NULL,
	"about" text NOT NULL,
	"status" text,
	"social_media" jsonb NOT NULL,
	"custom_pfp_location" text,
	"custom_banner_location" text,
	"clan" jsonb,
	"badges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"auth_level" integer DEFAULT 1 NOT NULL,
	"join_date" bigint NOT NULL,
	"last_seen" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_author_users_id_fk" FOREIGN KEY ("author") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_from_api_client_api_clients_client_id_fk" FOREIGN KEY ("from_api_client") REFERENCES "public"."api_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_client_id_api_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_game_stats" ADD CONSTRAINT "user_game_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_sent_to_users_id_fk" FOREIGN KEY ("sent_to") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_consumed_by_users_id_fk" FOREIGN KEY ("consumed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_credentials" ADD CONSTRAINT "user_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_clients_author_idx" ON "api_clients" USING btree ("author");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "api_keys_client_idx" ON "api_keys" USING btree ("from_api_client");--> statement-breakpoint
CREATE INDEX "notifications_user_sent_idx" ON "notifications" USING btree ("sent_to","sent_at");--> statement-breakpoint
CREATE INDEX "email_codes_user_idx" ON "email_codes" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "login_sessions_expire_idx" ON "login_sessions" USING btree ("expire");--> statement-breakpoint
CREATE UNIQUE INDEX "user_credentials_email_lowercase_key" ON "user_credentials" USING btree ("email_lowercase");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lowercase_key" ON "users" USING btree ("username_lowercase");--> statement-breakpoint
CREATE INDEX "users_last_seen_idx" ON "users" USING btree ("last_seen");