CREATE TABLE "deposit_scan_blocks" (
	"height" integer PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL
);
