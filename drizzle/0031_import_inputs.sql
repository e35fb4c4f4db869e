CREATE TABLE "import_inputs" (
	"import_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"input" text NOT NULL,
	"stored_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_inputs" ADD CONSTRAINT "import_inputs_import_id_imports_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("import_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_inputs_stored_at_idx" ON "import_inputs" USING btree ("stored_at");