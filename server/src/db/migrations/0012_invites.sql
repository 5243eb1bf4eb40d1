ALTER TABLE "users" ADD COLUMN "invite_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_invite_code_idx" ON "users" USING btree ("invite_code") WHERE "users"."invite_code" is not null;