ALTER TABLE "oauth_codes" ADD COLUMN "used_at" bigint;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "key_id" integer;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_key_id_api_keys_key_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("key_id") ON DELETE set null ON UPDATE no action;