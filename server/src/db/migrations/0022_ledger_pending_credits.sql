CREATE TABLE "ledger_pending_credits" (
	"transfer_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "ledger_pending_credits_transfer_id_account_id_pk" PRIMARY KEY("transfer_id","account_id"),
	CONSTRAINT "ledger_pending_credits_positive" CHECK ("ledger_pending_credits"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_pending_credits" ADD CONSTRAINT "ledger_pending_credits_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_pending_credits" ADD CONSTRAINT "ledger_pending_credits_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_pending_credits_account_idx" ON "ledger_pending_credits" USING btree ("account_id");
