ALTER TABLE "tracking_links" ADD COLUMN "discount_offer_id" integer;--> statement-breakpoint
ALTER TABLE "tracking_links" ADD COLUMN "discount_percent" smallint;--> statement-breakpoint
ALTER TABLE "tracking_links" ADD COLUMN "discount_limit" integer;--> statement-breakpoint
ALTER TABLE "tracking_links" ADD COLUMN "discount_until" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "link_discounts" (
	"creator_id" integer NOT NULL,
	"fan_id" integer NOT NULL,
	"link_id" integer NOT NULL,
	"subscription_id" integer,
	"transfer_id" integer,
	"percent" smallint NOT NULL,
	"earned_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_discounts_creator_id_fan_id_pk" PRIMARY KEY("creator_id","fan_id")
);
--> statement-breakpoint
ALTER TABLE "tracking_links" ADD CONSTRAINT "tracking_links_discount_offer_id_subscription_offers_id_fk" FOREIGN KEY ("discount_offer_id") REFERENCES "public"."subscription_offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_discounts" ADD CONSTRAINT "link_discounts_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_discounts" ADD CONSTRAINT "link_discounts_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_discounts" ADD CONSTRAINT "link_discounts_link_id_tracking_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracking_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_discounts" ADD CONSTRAINT "link_discounts_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_discounts" ADD CONSTRAINT "link_discounts_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_discounts_link_idx" ON "link_discounts" USING btree ("link_id");
