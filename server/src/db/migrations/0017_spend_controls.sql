ALTER TABLE "embed_consents" ADD COLUMN "monthly_allowance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "spend_origin" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "spend_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "spending_controls" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"daily_limit" integer,
	"monthly_limit" integer,
	"daily_limit_next" integer,
	"daily_limit_next_at" timestamp with time zone,
	"monthly_limit_next" integer,
	"monthly_limit_next_at" timestamp with time zone,
	"cooldown_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spends" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "spends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"creator_id" integer,
	"origin" text,
	"confirmed" boolean DEFAULT false NOT NULL,
	"transfer_key" text NOT NULL,
	"hold_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spend_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"origin" text NOT NULL,
	"consent_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"creator_id" integer,
	"subject" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "spending_controls" ADD CONSTRAINT "spending_controls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spends" ADD CONSTRAINT "spends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spends" ADD CONSTRAINT "spends_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_requests" ADD CONSTRAINT "spend_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_requests" ADD CONSTRAINT "spend_requests_consent_id_embed_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."embed_consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_requests" ADD CONSTRAINT "spend_requests_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spends_user_time_idx" ON "spends" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "spends_transfer_key_idx" ON "spends" USING btree ("transfer_key");--> statement-breakpoint
CREATE INDEX "spends_hold_idx" ON "spends" USING btree ("hold_id") WHERE "spends"."hold_id" is not null;--> statement-breakpoint
CREATE INDEX "spend_requests_user_idx" ON "spend_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "spend_requests_expires_idx" ON "spend_requests" USING btree ("expires_at");
