import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { otpCodes, type OtpPurpose } from '../db/schema';
import { tryAgainSentence } from '@offzero/shared/api/errors';
import { AppError } from '../http/errors';

/**
 * One-time codes (docs/design.md): 6 digits from a secure generator, stored as an HMAC
 * bound to purpose and destination, valid 10 minutes, single use, at most 5 tries, a new one no
 * sooner than 10 s after the last one that was not used.
 *
 * Per destination and 15 minutes: at most 5 codes that were sent and never used, and at most 15 in
 * all. A code the customer typed in proves they hold the address, so it is no flood: someone who
 * registers and then logs in several times in a quarter hour is never locked out, while codes that
 * nobody uses (someone bombarding another person's inbox or phone) stop after five.
 */
export const OTP_RULES = {
  validForMs: 10 * 60_000,
  maxAttempts: 5,
  resendAfterMs: 10_000,
  perDestinationWindowMs: 15 * 60_000,
  perDestinationUnusedMax: 5,
  perDestinationMax: 15,
  smsPerMinuteMax: 60,
} as const;

export interface OtpService {
  /** Creates a code for this purpose and destination (superseding older ones) and returns it for sending. */
  issue(purpose: OtpPurpose, destination: string, requesterIp: string): Promise<string>;
  /** Consumes the code if it is right; otherwise throws an AppError saying what to do. */
  verify(purpose: OtpPurpose, destination: string, code: string): Promise<void>;
  /** Whether a code for this purpose and destination was issued within the last `withinMs`. */
  issuedWithin(purpose: OtpPurpose, destination: string, withinMs: number): Promise<boolean>;
}

/** The newest code of this purpose and destination that nobody used: the one a customer may type in. */
async function newestUnusedCode(db: Database | Transaction, purpose: OtpPurpose, destination: string) {
  const [row] = await db
    .select()
    .from(otpCodes)
    .where(
      and(eq(otpCodes.purpose, purpose), eq(otpCodes.destination, destination), isNull(otpCodes.consumedAt)),
    )
    .orderBy(desc(otpCodes.createdAt))
    .limit(1);
  return row;
}

/** Throws the 429 (or, for text messages, 503) that the rules above call for, if any. */
async function assertMayIssue(
  tx: Transaction,
  purpose: OtpPurpose,
  destination: string,
  at: Date,
): Promise<void> {
  await assertResendWaitOver(tx, purpose, destination, at);
  await assertDestinationNotFlooded(tx, destination, at);
  if (purpose === 'phone' || purpose === 'recovery-sms') await assertSmsCapacity(tx, at);
}

/** The 10-second wait between two codes of this purpose and destination. */
async function assertResendWaitOver(
  tx: Transaction,
  purpose: OtpPurpose,
  destination: string,
  at: Date,
): Promise<void> {
  // The wait runs from the last code nobody used: a used code proves its holder (no flood), and
  // only an account's owner can use one, so counting it would tell strangers the account exists.
  const latest = await newestUnusedCode(tx, purpose, destination);
  if (!latest) return;
  const waitMs = latest.createdAt.getTime() + OTP_RULES.resendAfterMs - at.getTime();
  if (waitMs > 0) {
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Wait ${Math.ceil(waitMs / 1000)} seconds before asking for a new code.`,
    );
  }
}

/** The per-destination window: at most 5 unused codes and 15 in all in 15 minutes. */
async function assertDestinationNotFlooded(tx: Transaction, destination: string, at: Date): Promise<void> {
  const windowStart = new Date(at.getTime() - OTP_RULES.perDestinationWindowMs);
  const sent = await tx
    .select({ createdAt: otpCodes.createdAt, usedAt: otpCodes.consumedAt })
    .from(otpCodes)
    .where(and(eq(otpCodes.destination, destination), gt(otpCodes.createdAt, windowStart)))
    .orderBy(desc(otpCodes.createdAt))
    .limit(OTP_RULES.perDestinationMax);
  const unused = sent.filter((code) => code.usedAt === null);
  // The code whose leaving the window makes room again: the oldest one of those that fill it.
  const filling =
    sent.length >= OTP_RULES.perDestinationMax
      ? sent[OTP_RULES.perDestinationMax - 1]
      : unused.length >= OTP_RULES.perDestinationUnusedMax
        ? unused[OTP_RULES.perDestinationUnusedMax - 1]
        : undefined;
  if (filling) {
    const retryAt = new Date(filling.createdAt.getTime() + OTP_RULES.perDestinationWindowMs);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Too many codes were sent here without being used. ${tryAgainSentence(retryAt, { now: at, timeZone: 'UTC' })}`,
      undefined,
      retryAt,
    );
  }
}

/** At most 60 text messages a minute, over every phone number. */
async function assertSmsCapacity(tx: Transaction, at: Date): Promise<void> {
  // One count for every number: the text messages of all destinations take turns here.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('otp:sms-per-minute'))`);
  const [lastMinute] = await tx
    .select({ sent: count() })
    .from(otpCodes)
    .where(and(eq(otpCodes.purpose, 'phone'), gt(otpCodes.createdAt, new Date(at.getTime() - 60_000))));
  if ((lastMinute?.sent ?? 0) >= OTP_RULES.smsPerMinuteMax) {
    throw new AppError(
      'UNAVAILABLE',
      'We are sending too many text messages right now. Try again in a minute.',
    );
  }
}

export function createOtpService(
  db: Database,
  secret: Uint8Array,
  now: () => Date = () => new Date(),
): OtpService {
  const hash = (purpose: OtpPurpose, destination: string, code: string) =>
    createHmac('sha256', secret).update(`${purpose}\n${destination}\n${code}`).digest('hex');

  return {
    async issuedWithin(purpose, destination, withinMs) {
      const [row] = await db
        .select({ id: otpCodes.id })
        .from(otpCodes)
        .where(
          and(
            eq(otpCodes.purpose, purpose),
            eq(otpCodes.destination, destination),
            gt(otpCodes.createdAt, new Date(now().getTime() - withinMs)),
          ),
        )
        .limit(1);
      return Boolean(row);
    },

    async issue(purpose, destination, requesterIp) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // The checks and the new code are one step per destination: simultaneous requests, on any
      // process, wait for each other here, so only one of them can pass the 10-second rule.
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${destination}`}))`);
        const at = now();
        await assertMayIssue(tx, purpose, destination, at);
        // Only the newest code for a purpose and destination is usable: older ones expire now (they
        // stay unused, so they still count as codes nobody typed in).
        await tx
          .update(otpCodes)
          .set({ expiresAt: at })
          .where(
            and(
              eq(otpCodes.purpose, purpose),
              eq(otpCodes.destination, destination),
              isNull(otpCodes.consumedAt),
              gt(otpCodes.expiresAt, at),
            ),
          );
        await tx.insert(otpCodes).values({
          purpose,
          destination,
          codeHash: hash(purpose, destination, code),
          expiresAt: new Date(at.getTime() + OTP_RULES.validForMs),
          requesterIp,
          createdAt: at,
        });
      });
      return code;
    },

    async verify(purpose, destination, code) {
      const at = now();
      const active = await newestUnusedCode(db, purpose, destination);
      if (!active || active.expiresAt <= at) {
        throw new AppError('BAD_REQUEST', 'This code has expired or was already used. Ask for a new code.');
      }
      // Count the try before comparing, in one statement, so simultaneous guesses each use up a try.
      const [counted] = await db
        .update(otpCodes)
        .set({ attempts: sql`${otpCodes.attempts} + 1` })
        .where(
          and(
            eq(otpCodes.id, active.id),
            lt(otpCodes.attempts, OTP_RULES.maxAttempts),
            isNull(otpCodes.consumedAt),
          ),
        )
        .returning({ attempts: otpCodes.attempts });
      if (!counted) {
        throw new AppError('TOO_MANY_REQUESTS', 'Too many wrong codes. Ask for a new code.');
      }
      const expected = Buffer.from(active.codeHash, 'hex');
      const given = Buffer.from(hash(purpose, destination, code), 'hex');
      if (!timingSafeEqual(expected, given)) {
        const left = OTP_RULES.maxAttempts - counted.attempts;
        throw new AppError(
          'BAD_REQUEST',
          left > 0
            ? `That code is not right. You have ${left} ${left === 1 ? 'try' : 'tries'} left.`
            : 'That code is not right. Ask for a new code.',
        );
      }
      const [consumed] = await db
        .update(otpCodes)
        .set({ consumedAt: at })
        // Still unused and not superseded by a newer code meanwhile.
        .where(and(eq(otpCodes.id, active.id), isNull(otpCodes.consumedAt), gt(otpCodes.expiresAt, at)))
        .returning({ id: otpCodes.id });
      if (!consumed)
        throw new AppError('BAD_REQUEST', 'This code has expired or was already used. Ask for a new code.');
    },
  };
}
