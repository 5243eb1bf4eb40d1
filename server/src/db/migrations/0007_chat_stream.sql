CREATE TABLE "chat_stream" (
	"user_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"message_id" integer NOT NULL,
	CONSTRAINT "chat_stream_user_id_seq_pk" PRIMARY KEY("user_id","seq")
);
--> statement-breakpoint
CREATE TABLE "chat_stream_heads" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_stream" ADD CONSTRAINT "chat_stream_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_stream_heads" ADD CONSTRAINT "chat_stream_heads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_stream_message_idx" ON "chat_stream" USING btree ("message_id","user_id");--> statement-breakpoint
-- Messages stored before streams existed get positions in their sender's and their receiver's
-- streams, in the order of their ids (nobody can be resuming from a position yet).
INSERT INTO "chat_stream" ("user_id", "seq", "message_id")
SELECT s."user_id", row_number() OVER (PARTITION BY s."user_id" ORDER BY s."message_id"), s."message_id"
FROM (
	SELECT "sender_id" AS "user_id", "id" AS "message_id" FROM "chat_messages"
	UNION
	SELECT "receiver_id", "id" FROM "chat_messages"
) s;--> statement-breakpoint
INSERT INTO "chat_stream_heads" ("user_id", "seq")
SELECT "user_id", max("seq") FROM "chat_stream" GROUP BY "user_id";
