DROP INDEX IF EXISTS "notifications_user_idx";--> statement-breakpoint
CREATE INDEX "notifications_list_idx" ON "notifications" USING btree ("user_id","updated_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX "notifications_type_list_idx" ON "notifications" USING btree ("user_id","type","updated_at" DESC,"id" DESC);
