CREATE TABLE "badge_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" text NOT NULL,
	"private_jwk" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "badge_keys_signing_idx" ON "badge_keys" USING btree ((true)) WHERE "badge_keys"."retires_at" is null;--> statement-breakpoint
CREATE TABLE "origin_proofs" (
	"user_id" integer NOT NULL,
	"origin" text NOT NULL,
	"token" text NOT NULL,
	"method" text,
	"proven_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"failures" smallint DEFAULT 0 NOT NULL,
	"problem" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "origin_proofs_user_id_origin_pk" PRIMARY KEY("user_id","origin")
);
--> statement-breakpoint
ALTER TABLE "origin_proofs" ADD CONSTRAINT "origin_proofs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "origin_proofs_proven_idx" ON "origin_proofs" USING btree ("origin") WHERE "origin_proofs"."proven_at" is not null;--> statement-breakpoint
CREATE INDEX "origin_proofs_recheck_idx" ON "origin_proofs" USING btree ("checked_at") WHERE "origin_proofs"."proven_at" is not null;
