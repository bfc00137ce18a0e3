CREATE TABLE "travel_rule_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"customer_name" text NOT NULL,
	"customer_address" text,
	"payment_identifier" text,
	"amount_sats" bigint NOT NULL,
	"value_cents" bigint NOT NULL,
	"wallet_address" text NOT NULL,
	"own_wallet" boolean NOT NULL,
	"institution" text,
	"order_created_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "travel_rule_records_institution" CHECK (("travel_rule_records"."own_wallet" and "travel_rule_records"."institution" is null) or (not "travel_rule_records"."own_wallet" and "travel_rule_records"."institution" is not null))
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "limit_tier1_day_cents" bigint DEFAULT 1000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "limit_tier1_week_cents" bigint DEFAULT 2000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "limit_tier1_month_cents" bigint DEFAULT 5000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "limit_tier2_day_cents" bigint DEFAULT 5000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "limit_tier2_week_cents" bigint DEFAULT 10000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "limit_tier2_month_cents" bigint DEFAULT 25000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "limit_tier" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "travel_rule_records" ADD CONSTRAINT "travel_rule_records_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_rule_records" ADD CONSTRAINT "travel_rule_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "travel_rule_records_order_unique" ON "travel_rule_records" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "travel_rule_records_user_idx" ON "travel_rule_records" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "global_settings" ADD CONSTRAINT "global_settings_limits_positive" CHECK (least("global_settings"."limit_tier1_day_cents", "global_settings"."limit_tier1_week_cents", "global_settings"."limit_tier1_month_cents", "global_settings"."limit_tier2_day_cents", "global_settings"."limit_tier2_week_cents", "global_settings"."limit_tier2_month_cents") > 0);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_limit_tier" CHECK ("users"."limit_tier" in (1, 2));