CREATE TABLE "calls" (
	"id" text PRIMARY KEY NOT NULL,
	"caller_id" integer NOT NULL,
	"callee_id" integer NOT NULL,
	"state" text NOT NULL,
	"end_reason" text,
	"agreed_price" integer NOT NULL,
	"earnings_price" integer NOT NULL,
	"minutes" integer DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"earnings" bigint DEFAULT 0 NOT NULL,
	"held_through" integer DEFAULT 0 NOT NULL,
	"settled_through" integer DEFAULT 0 NOT NULL,
	"lease_node" text,
	"lease_until" timestamp with time zone,
	"caller_gone_at" timestamp with time zone,
	"callee_gone_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "calls_state" CHECK ("calls"."state" in ('ringing', 'live', 'ended', 'declined', 'cancelled', 'missed', 'busy', 'noCredit', 'failed')),
	CONSTRAINT "calls_amounts" CHECK ("calls"."agreed_price" >= 0 and "calls"."earnings_price" >= 0 and "calls"."minutes" >= 0 and "calls"."held_through" >= "calls"."settled_through")
);
--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_caller_id_users_id_fk" FOREIGN KEY ("caller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_callee_id_users_id_fk" FOREIGN KEY ("callee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calls_open_caller_idx" ON "calls" USING btree ("caller_id") WHERE "calls"."state" in ('ringing', 'live');--> statement-breakpoint
CREATE UNIQUE INDEX "calls_open_callee_idx" ON "calls" USING btree ("callee_id") WHERE "calls"."state" in ('ringing', 'live');--> statement-breakpoint
CREATE INDEX "calls_ringing_idx" ON "calls" USING btree ("created_at") WHERE "calls"."state" = 'ringing';--> statement-breakpoint
CREATE INDEX "calls_live_lease_idx" ON "calls" USING btree ("lease_until") WHERE "calls"."state" = 'live';