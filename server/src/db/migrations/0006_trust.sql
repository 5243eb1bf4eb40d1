CREATE TABLE "embed_consents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "embed_consents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "throttle_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "throttle_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "consent_id" integer;--> statement-breakpoint
ALTER TABLE "embed_consents" ADD CONSTRAINT "embed_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "embed_consents_user_origin_idx" ON "embed_consents" USING btree ("user_id","origin");--> statement-breakpoint
CREATE INDEX "throttle_events_key_idx" ON "throttle_events" USING btree ("bucket","key","created_at");--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_consent_id_embed_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."embed_consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Only approved creators (sellers) and administrators may list embed origins: lists made by anyone else before this rule end here.
DELETE FROM "embed_origins" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE NOT "is_seller" AND "level" < 500);
