CREATE TABLE "chat_conversations" (
	"user_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"last_read_at" timestamp with time zone,
	"archived" boolean DEFAULT false NOT NULL,
	"agreed_price" integer DEFAULT 0 NOT NULL,
	"custom_price" integer,
	"sum_price" bigint DEFAULT 0 NOT NULL,
	"last_message_id" integer,
	"last_message_at" timestamp with time zone,
	"last_incoming_at" timestamp with time zone,
	"last_suspected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_conversations_user_id_partner_id_pk" PRIMARY KEY("user_id","partner_id")
);
--> statement-breakpoint
CREATE TABLE "chat_mass_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_mass_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sender_id" integer NOT NULL,
	"msg_id" text NOT NULL,
	"rec_group" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"media_id" integer,
	"recipients_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"msg_id" text NOT NULL,
	"sender_id" integer NOT NULL,
	"receiver_id" integer NOT NULL,
	"low_user_id" integer GENERATED ALWAYS AS (least(sender_id, receiver_id)) STORED,
	"high_user_id" integer GENERATED ALWAYS AS (greatest(sender_id, receiver_id)) STORED,
	"text" text DEFAULT '' NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"gift_id" integer,
	"media_id" integer,
	"mass_id" integer,
	"suspected_until" timestamp with time zone,
	"sender_reaction_id" integer,
	"sender_reacted_at" timestamp with time zone,
	"receiver_reaction_id" integer,
	"receiver_reacted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_mass_messages" ADD CONSTRAINT "chat_mass_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_mass_messages" ADD CONSTRAINT "chat_mass_messages_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_gift_id_gifts_id_fk" FOREIGN KEY ("gift_id") REFERENCES "public"."gifts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_mass_id_chat_mass_messages_id_fk" FOREIGN KEY ("mass_id") REFERENCES "public"."chat_mass_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_conversations_list_idx" ON "chat_conversations" USING btree ("user_id","last_message_at" DESC NULLS LAST) WHERE "chat_conversations"."last_message_id" is not null;--> statement-breakpoint
CREATE INDEX "chat_conversations_unread_idx" ON "chat_conversations" USING btree ("user_id") WHERE "chat_conversations"."last_incoming_at" > coalesce("chat_conversations"."last_read_at", '-infinity'::timestamptz) and not "chat_conversations"."archived";--> statement-breakpoint
CREATE UNIQUE INDEX "chat_mass_messages_msg_idx" ON "chat_mass_messages" USING btree ("sender_id","msg_id");--> statement-breakpoint
CREATE INDEX "chat_mass_messages_group_idx" ON "chat_mass_messages" USING btree ("sender_id","rec_group","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_msg_idx" ON "chat_messages" USING btree ("sender_id","msg_id");--> statement-breakpoint
CREATE INDEX "chat_messages_pair_idx" ON "chat_messages" USING btree ("low_user_id","high_user_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_sender_idx" ON "chat_messages" USING btree ("sender_id","id");--> statement-breakpoint
CREATE INDEX "chat_messages_receiver_idx" ON "chat_messages" USING btree ("receiver_id","id");--> statement-breakpoint
CREATE INDEX "chat_messages_reactions_idx" ON "chat_messages" USING btree ("sender_id","receiver_reacted_at") WHERE "chat_messages"."receiver_reacted_at" is not null;--> statement-breakpoint
CREATE INDEX "chat_messages_media_idx" ON "chat_messages" USING btree ("low_user_id","high_user_id","id") WHERE "chat_messages"."media_id" is not null;