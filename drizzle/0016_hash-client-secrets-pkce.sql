ALTER TABLE "api_clients" ADD COLUMN "client_secret_hash" text;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "code_challenge" text;--> statement-breakpoint
-- Existing secrets become their SHA-256 (hex), as the server now stores them; the plain column is dropped next.
UPDATE "api_clients" SET "client_secret_hash" = encode(sha256(convert_to("client_secret", 'UTF8')), 'hex');
