ALTER TABLE "ugpt_settings" ADD COLUMN "preferred_default_enum" text;--> statement-breakpoint
ALTER TABLE "ugpt_settings" ADD COLUMN "default_table" text;--> statement-breakpoint
ALTER TABLE "ugpt_settings" ADD COLUMN "preferred_ranking" text;--> statement-breakpoint
ALTER TABLE "ugpt_settings" ADD COLUMN "game_specific" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_supporter" boolean DEFAULT false NOT NULL;