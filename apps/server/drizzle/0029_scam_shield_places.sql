CREATE TABLE "jurisdiction_edit_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"rules" jsonb NOT NULL,
	"requested_by_user_id" uuid NOT NULL,
	"requested_by_email" text NOT NULL,
	"approved_by_user_id" uuid,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jurisdiction_rules" (
	"version" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"buy" boolean NOT NULL,
	"sell" boolean NOT NULL,
	"new_customer_daily_cents" bigint,
	"order_max_cents" bigint,
	"licence" text DEFAULT '' NOT NULL,
	"disclosures" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jurisdiction_rules_amounts" CHECK (coalesce("jurisdiction_rules"."new_customer_daily_cents", 1) > 0 and coalesce("jurisdiction_rules"."order_max_cents", 1) > 0)
);
--> statement-breakpoint
CREATE TABLE "shield_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"order_id" uuid,
	"route" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "scam_new_customer_daily_cents" bigint DEFAULT 100000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "scam_cooling_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "residence_state" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "jurisdiction_version" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "jurisdiction_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cooling_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "scam_check" jsonb;--> statement-breakpoint
ALTER TABLE "jurisdiction_edit_requests" ADD CONSTRAINT "jurisdiction_edit_requests_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jurisdiction_edit_requests" ADD CONSTRAINT "jurisdiction_edit_requests_approved_by_user_id_users_id_fk" FOREIGN KEY ("approved_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shield_decisions" ADD CONSTRAINT "shield_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jurisdiction_edit_requests_open_unique" ON "jurisdiction_edit_requests" USING btree ("code") WHERE "jurisdiction_edit_requests"."approved_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "jurisdiction_rules_code_version_unique" ON "jurisdiction_rules" USING btree ("code","version");--> statement-breakpoint
CREATE INDEX "jurisdiction_rules_version_idx" ON "jurisdiction_rules" USING btree ("version");--> statement-breakpoint
CREATE INDEX "shield_decisions_user_idx" ON "shield_decisions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "shield_decisions_decision_idx" ON "shield_decisions" USING btree ("decision");
--> statement-breakpoint
-- hand-written below
-- The places' first rules (version 1): New York closed for buying and selling, every other place open
-- with the global limits (docs/design.md, "Places and the scam shield").
INSERT INTO "jurisdiction_rules" ("version", "code", "name", "buy", "sell", "licence", "disclosures", "created_by") VALUES
(1, 'AL', 'Alabama', true, true, 'OffZero trades bitcoin with customers in Alabama under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'AK', 'Alaska', true, true, 'OffZero trades bitcoin with customers in Alaska under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'AZ', 'Arizona', true, true, 'OffZero trades bitcoin with customers in Arizona under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'AR', 'Arkansas', true, true, 'OffZero trades bitcoin with customers in Arkansas under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'CA', 'California', true, true, 'OffZero trades bitcoin with customers in California under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'CO', 'Colorado', true, true, 'OffZero trades bitcoin with customers in Colorado under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'CT', 'Connecticut', true, true, 'OffZero trades bitcoin with customers in Connecticut under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'DE', 'Delaware', true, true, 'OffZero trades bitcoin with customers in Delaware under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'DC', 'District of Columbia', true, true, 'OffZero trades bitcoin with customers in District of Columbia under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'FL', 'Florida', true, true, 'OffZero trades bitcoin with customers in Florida under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'GA', 'Georgia', true, true, 'OffZero trades bitcoin with customers in Georgia under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'HI', 'Hawaii', true, true, 'OffZero trades bitcoin with customers in Hawaii under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'ID', 'Idaho', true, true, 'OffZero trades bitcoin with customers in Idaho under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'IL', 'Illinois', true, true, 'OffZero trades bitcoin with customers in Illinois under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'IN', 'Indiana', true, true, 'OffZero trades bitcoin with customers in Indiana under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'IA', 'Iowa', true, true, 'OffZero trades bitcoin with customers in Iowa under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'KS', 'Kansas', true, true, 'OffZero trades bitcoin with customers in Kansas under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'KY', 'Kentucky', true, true, 'OffZero trades bitcoin with customers in Kentucky under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'LA', 'Louisiana', true, true, 'OffZero trades bitcoin with customers in Louisiana under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'ME', 'Maine', true, true, 'OffZero trades bitcoin with customers in Maine under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MD', 'Maryland', true, true, 'OffZero trades bitcoin with customers in Maryland under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MA', 'Massachusetts', true, true, 'OffZero trades bitcoin with customers in Massachusetts under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MI', 'Michigan', true, true, 'OffZero trades bitcoin with customers in Michigan under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MN', 'Minnesota', true, true, 'OffZero trades bitcoin with customers in Minnesota under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MS', 'Mississippi', true, true, 'OffZero trades bitcoin with customers in Mississippi under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MO', 'Missouri', true, true, 'OffZero trades bitcoin with customers in Missouri under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MT', 'Montana', true, true, 'OffZero trades bitcoin with customers in Montana under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'NE', 'Nebraska', true, true, 'OffZero trades bitcoin with customers in Nebraska under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'NV', 'Nevada', true, true, 'OffZero trades bitcoin with customers in Nevada under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'NH', 'New Hampshire', true, true, 'OffZero trades bitcoin with customers in New Hampshire under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'NJ', 'New Jersey', true, true, 'OffZero trades bitcoin with customers in New Jersey under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'NM', 'New Mexico', true, true, 'OffZero trades bitcoin with customers in New Mexico under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'NY', 'New York', false, false, 'OffZero is not licensed in New York.', 'OffZero is not available in New York yet.', 'seed'),
(1, 'NC', 'North Carolina', true, true, 'OffZero trades bitcoin with customers in North Carolina under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'ND', 'North Dakota', true, true, 'OffZero trades bitcoin with customers in North Dakota under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'OH', 'Ohio', true, true, 'OffZero trades bitcoin with customers in Ohio under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'OK', 'Oklahoma', true, true, 'OffZero trades bitcoin with customers in Oklahoma under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'OR', 'Oregon', true, true, 'OffZero trades bitcoin with customers in Oregon under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'PA', 'Pennsylvania', true, true, 'OffZero trades bitcoin with customers in Pennsylvania under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'RI', 'Rhode Island', true, true, 'OffZero trades bitcoin with customers in Rhode Island under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'SC', 'South Carolina', true, true, 'OffZero trades bitcoin with customers in South Carolina under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'SD', 'South Dakota', true, true, 'OffZero trades bitcoin with customers in South Dakota under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'TN', 'Tennessee', true, true, 'OffZero trades bitcoin with customers in Tennessee under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'TX', 'Texas', true, true, 'OffZero trades bitcoin with customers in Texas under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'UT', 'Utah', true, true, 'OffZero trades bitcoin with customers in Utah under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'VT', 'Vermont', true, true, 'OffZero trades bitcoin with customers in Vermont under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'VA', 'Virginia', true, true, 'OffZero trades bitcoin with customers in Virginia under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'WA', 'Washington', true, true, 'OffZero trades bitcoin with customers in Washington under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'WV', 'West Virginia', true, true, 'OffZero trades bitcoin with customers in West Virginia under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'WI', 'Wisconsin', true, true, 'OffZero trades bitcoin with customers in Wisconsin under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'WY', 'Wyoming', true, true, 'OffZero trades bitcoin with customers in Wyoming under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'AS', 'American Samoa', true, true, 'OffZero trades bitcoin with customers in American Samoa under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'GU', 'Guam', true, true, 'OffZero trades bitcoin with customers in Guam under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'MP', 'Northern Mariana Islands', true, true, 'OffZero trades bitcoin with customers in Northern Mariana Islands under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'PR', 'Puerto Rico', true, true, 'OffZero trades bitcoin with customers in Puerto Rico under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed'),
(1, 'VI', 'U.S. Virgin Islands', true, true, 'OffZero trades bitcoin with customers in U.S. Virgin Islands under its money transmission registration.', 'Bitcoin is not legal tender and is not backed by any government. Its price can fall quickly. Transactions cannot be reversed: scammers ask for bitcoin because it cannot be taken back.', 'seed')
ON CONFLICT DO NOTHING;
