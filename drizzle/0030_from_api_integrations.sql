CREATE TABLE "from_api_sync_state" (
	"user_id" integer NOT NULL,
	"import_type" text NOT NULL,
	"cursor" jsonb,
	"import_id" text NOT NULL,
	"synced_at" bigint NOT NULL,
	CONSTRAINT "from_api_sync_state_user_id_import_type_pk" PRIMARY KEY("user_id","import_type")
);
--> statement-breakpoint
CREATE TABLE "integration_credentials" (
	"user_id" integer NOT NULL,
	"service" text NOT NULL,
	"credentials_encrypted" text NOT NULL,
	"facts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"linked_at" bigint NOT NULL,
	CONSTRAINT "integration_credentials_user_id_service_pk" PRIMARY KEY("user_id","service")
);
--> statement-breakpoint
CREATE TABLE "kshook_sv6c_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"force_static_import" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "empty_reason" text;--> statement-breakpoint
ALTER TABLE "from_api_sync_state" ADD CONSTRAINT "from_api_sync_state_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_credentials" ADD CONSTRAINT "integration_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kshook_sv6c_settings" ADD CONSTRAINT "kshook_sv6c_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;