ALTER TABLE "global_settings" ADD COLUMN "instant_active" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "instant_bank_charges_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "instant_max_payout_cents" bigint DEFAULT 2500000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "arrival_instant" text DEFAULT 'Arrives in seconds, any day and hour.' NOT NULL;