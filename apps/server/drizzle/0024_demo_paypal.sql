CREATE TABLE "demo_paypal_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"reference_id" text NOT NULL,
	"value_cents" bigint NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"capture_id" text,
	"capture_request_id" text,
	"refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_paypal_orders_capture_id_unique" UNIQUE("capture_id"),
	CONSTRAINT "demo_paypal_orders_refund_id_unique" UNIQUE("refund_id"),
	CONSTRAINT "demo_paypal_orders_value" CHECK ("demo_paypal_orders"."value_cents" > 0),
	CONSTRAINT "demo_paypal_orders_status" CHECK ("demo_paypal_orders"."status" in ('CREATED', 'APPROVED', 'COMPLETED', 'VOIDED')),
	CONSTRAINT "demo_paypal_orders_capture" CHECK (("demo_paypal_orders"."status" = 'COMPLETED') = ("demo_paypal_orders"."capture_id" is not null and "demo_paypal_orders"."capture_request_id" is not null)),
	CONSTRAINT "demo_paypal_orders_refund" CHECK ("demo_paypal_orders"."refund_id" is null or "demo_paypal_orders"."capture_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "demo_paypal_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"webhook_key" "bytea" NOT NULL,
	CONSTRAINT "demo_paypal_state_single_row" CHECK ("demo_paypal_state"."id" = 1),
	CONSTRAINT "demo_paypal_state_key" CHECK (octet_length("demo_paypal_state"."webhook_key") = 32)
);
