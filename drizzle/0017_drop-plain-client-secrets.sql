ALTER TABLE "api_clients" ALTER COLUMN "client_secret_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_clients" DROP COLUMN "client_secret";