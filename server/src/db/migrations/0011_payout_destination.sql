ALTER TABLE "subscription_offers" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "payout_destinations" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"paypal_email" text,
	"card_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_destinations" ADD CONSTRAINT "payout_destinations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_destinations" ADD CONSTRAINT "payout_destinations_card_id_payment_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."payment_cards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD COLUMN "destination" text;--> statement-breakpoint
CREATE INDEX "chat_messages_mass_idx" ON "chat_messages" USING btree ("mass_id") WHERE "chat_messages"."mass_id" is not null;
