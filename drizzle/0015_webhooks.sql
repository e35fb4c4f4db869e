CREATE TABLE "webhook_deliveries" (
	"delivery_id" bigserial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_attempt_at" bigint,
	"last_status_code" integer,
	"last_error" text,
	"last_url" text,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
-- Clients made before webhook secrets existed get one (80 hex from two random UUIDs); their owners read it by resetting it.
UPDATE "api_clients" SET "webhook_secret" = 'WS' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') WHERE "webhook_secret" IS NULL;--> statement-breakpoint
ALTER TABLE "api_clients" ALTER COLUMN "webhook_secret" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_client_id_api_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("client_id","event_key");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_client_idx" ON "webhook_deliveries" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';