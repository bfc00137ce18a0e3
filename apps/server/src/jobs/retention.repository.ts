import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';

/** How long used or expired one-time codes and ended sessions are kept. */
export const ENDED_ROWS_KEPT_DAYS = 30;
/** Price snapshots older than this are thinned to one an hour. */
export const FULL_PRICE_HISTORY_DAYS = 90;

export interface RetentionResult {
  priceSnapshots: number;
  otpCodes: number;
  sessions: number;
  outboxEvents: number;
  idempotencyKeys: number;
  /** Registration tokens, admin second-step tokens and passkey challenges, ended over 30 days ago. */
  signInTokens: number;
  /** Locked quotes never used for an order, expired more than 30 days ago. */
  quotes: number;
}

function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number | null };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}

/**
 * Retention (docs/design.md). Price snapshots older than 90 days keep the first of each hour
 * and every one an order was priced from; one-time codes used or expired, and sessions revoked or
 * expired, more than 30 days ago are deleted, and so are outbox deliveries made more than 30 days ago
 * (parked failures stay until someone looks), registration and second-step sign-in tokens and passkey challenges ended more
 * than 30 days ago, locked quotes never used and expired more than 30 days ago, and idempotency keys
 * older than 24 hours. Orders, order events, deposits, audit and compliance records (monitoring cases
 * and their notes, kept at least 5 years) are never touched here.
 */
export async function applyRetention(db: Database, now: Date = new Date()): Promise<RetentionResult> {
  const priceCutoff = new Date(now.getTime() - FULL_PRICE_HISTORY_DAYS * 86_400_000);
  const endedCutoff = new Date(now.getTime() - ENDED_ROWS_KEPT_DAYS * 86_400_000);
  // Before the prices: a quote still kept keeps the price it was made from.
  const unusedQuotes = await db.execute(sql`
    delete from quotes
    where used_at is null and expires_at < ${endedCutoff.toISOString()}::timestamptz`);
  const prices = await db.execute(sql`
    delete from price_snapshots p
    where p.fetched_at < ${priceCutoff.toISOString()}::timestamptz
      and not exists (select 1 from orders o where o.price_snapshot_id = p.id)
      and not exists (select 1 from quotes q where q.price_snapshot_id = p.id)
      and p.id not in (
        select distinct on (date_trunc('hour', k.fetched_at)) k.id
        from price_snapshots k
        where k.fetched_at < ${priceCutoff.toISOString()}::timestamptz
        order by date_trunc('hour', k.fetched_at), k.fetched_at, k.id
      )`);
  const codes = await db.execute(sql`
    delete from otp_codes
    where least(coalesce(consumed_at, 'infinity'::timestamptz), expires_at) < ${endedCutoff.toISOString()}::timestamptz`);
  const sessions = await db.execute(sql`
    delete from sessions
    where least(coalesce(revoked_at, 'infinity'::timestamptz), expires_at) < ${endedCutoff.toISOString()}::timestamptz`);
  const delivered = await db.execute(sql`
    delete from outbox_events
    where status = 'delivered' and delivered_at < ${endedCutoff.toISOString()}::timestamptz`);
  // Idempotency keys replay their answer for 24 hours (docs/design.md), then go.
  const keys = await db.execute(sql`
    delete from idempotency_keys
    where created_at < ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`);
  const ended = sql`least(coalesce(consumed_at, 'infinity'::timestamptz), expires_at) < ${endedCutoff.toISOString()}::timestamptz`;
  const registrationTokens = await db.execute(sql`delete from registration_tokens where ${ended}`);
  const mfaChallenges = await db.execute(sql`delete from mfa_challenges where ${ended}`);
  const passkeyChallenges = await db.execute(sql`delete from passkey_challenges where ${ended}`);
  return {
    idempotencyKeys: affected(keys),
    signInTokens: affected(registrationTokens) + affected(mfaChallenges) + affected(passkeyChallenges),
    priceSnapshots: affected(prices),
    otpCodes: affected(codes),
    sessions: affected(sessions),
    outboxEvents: affected(delivered),
    quotes: affected(unusedQuotes),
  };
}
