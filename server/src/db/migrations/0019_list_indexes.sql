DROP INDEX IF EXISTS "notifications_user_idx";--> statement-breakpoint
CREATE INDEX "notifications_list_idx" ON "notifications" USING btree ("user_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_type_list_idx" ON "notifications" USING btree ("user_id","type","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
DROP INDEX IF EXISTS "comments_post_idx";--> statement-breakpoint
CREATE INDEX "comments_post_idx" ON "comments" USING btree ("post_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "comments"."parent_id" is null;--> statement-breakpoint
DROP INDEX IF EXISTS "comments_parent_idx";--> statement-breakpoint
CREATE INDEX "comments_parent_idx" ON "comments" USING btree ("parent_id","created_at","id");
