CREATE TABLE "order_value_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"value_cents" bigint NOT NULL,
	CONSTRAINT "order_value_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
-- Keeps order_value_days equal to the sum of each customer's counted orders per UTC day of creation:
-- the orders of every status but 'expired' and 'cancelled' (limits/limits.repository.ts,
-- NOT_COUNTED_STATUSES), as the trading limits count them. It runs in the transaction of the change.
CREATE FUNCTION "order_value_days_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status NOT IN ('expired', 'cancelled') THEN
    INSERT INTO order_value_days (user_id, day, value_cents)
    VALUES (OLD.user_id, (OLD.created_at AT TIME ZONE 'UTC')::date, -OLD.value_cents)
    ON CONFLICT (user_id, day) DO UPDATE SET value_cents = order_value_days.value_cents + EXCLUDED.value_cents;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status NOT IN ('expired', 'cancelled') THEN
    INSERT INTO order_value_days (user_id, day, value_cents)
    VALUES (NEW.user_id, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.value_cents)
    ON CONFLICT (user_id, day) DO UPDATE SET value_cents = order_value_days.value_cents + EXCLUDED.value_cents;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_value_days_insert_delete" AFTER INSERT OR DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "order_value_days_follow"();--> statement-breakpoint
-- Only a change that moves an order's value: most status changes (paid, completed…) leave it counted.
CREATE TRIGGER "orders_value_days_update" AFTER UPDATE OF "user_id", "status", "value_cents", "created_at" ON "orders"
  FOR EACH ROW WHEN (
    OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.value_cents IS DISTINCT FROM NEW.value_cents
    OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR (OLD.status IN ('expired', 'cancelled')) IS DISTINCT FROM (NEW.status IN ('expired', 'cancelled'))
  ) EXECUTE FUNCTION "order_value_days_follow"();--> statement-breakpoint
-- The orders already there. Creating the triggers above locked out writes to orders until this
-- migration commits, so no order changes between this sum and the triggers taking over.
INSERT INTO "order_value_days" ("user_id", "day", "value_cents")
  SELECT "user_id", ("created_at" AT TIME ZONE 'UTC')::date, sum("value_cents")
  FROM "orders"
  WHERE "status" NOT IN ('expired', 'cancelled')
  GROUP BY 1, 2;
