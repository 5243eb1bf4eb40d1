CREATE TABLE "tracking_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"creator_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"trial_offer_id" integer,
	"trial_days" smallint,
	"trial_limit" integer,
	"trial_until" timestamp with time zone,
	"trial_then" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "link_visits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "link_visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"link_id" integer NOT NULL,
	"visitor" text NOT NULL,
	"user_id" integer,
	"signed_up" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_trials" (
	"creator_id" integer NOT NULL,
	"fan_id" integer NOT NULL,
	"link_id" integer NOT NULL,
	"subscription_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_trials_creator_id_fan_id_pk" PRIMARY KEY("creator_id","fan_id")
);
--> statement-breakpoint
CREATE TABLE "spend_attributions" (
	"transfer_id" integer PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"fan_id" integer,
	"kind" text NOT NULL,
	"earned_cents" bigint NOT NULL,
	"origin" text,
	"link_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking_links" ADD CONSTRAINT "tracking_links_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_links" ADD CONSTRAINT "tracking_links_trial_offer_id_subscription_offers_id_fk" FOREIGN KEY ("trial_offer_id") REFERENCES "public"."subscription_offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_visits" ADD CONSTRAINT "link_visits_link_id_tracking_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracking_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_visits" ADD CONSTRAINT "link_visits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_trials" ADD CONSTRAINT "link_trials_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_trials" ADD CONSTRAINT "link_trials_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_trials" ADD CONSTRAINT "link_trials_link_id_tracking_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracking_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_trials" ADD CONSTRAINT "link_trials_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_attributions" ADD CONSTRAINT "spend_attributions_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_attributions" ADD CONSTRAINT "spend_attributions_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_attributions" ADD CONSTRAINT "spend_attributions_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_attributions" ADD CONSTRAINT "spend_attributions_link_id_tracking_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracking_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_links_code_idx" ON "tracking_links" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_links_name_idx" ON "tracking_links" USING btree ("creator_id",lower("name")) WHERE "tracking_links"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "link_visits_link_idx" ON "link_visits" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX "link_visits_visitor_idx" ON "link_visits" USING btree ("visitor") WHERE "link_visits"."user_id" is null;--> statement-breakpoint
CREATE INDEX "link_visits_user_idx" ON "link_visits" USING btree ("user_id","link_id");--> statement-breakpoint
CREATE INDEX "link_trials_link_idx" ON "link_trials" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "spend_attributions_creator_idx" ON "spend_attributions" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE INDEX "spend_attributions_link_idx" ON "spend_attributions" USING btree ("link_id");
