import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database';
import { AppError } from '../http/errors';
import { recordAdminAction } from '../admin/admin-audit.repository';
import {
  consumeChallenge,
  countChallengeTry,
  createChallenge,
  findAdminMfa,
  findLiveChallenge,
  savePendingSecret,
  useStep,
} from './admin-mfa.repository';
import type { SignedInUser } from './sessions';
import { createSecretBox, newTotpSecret, totpStep } from './totp';

/**
 * Admin two-factor authentication (docs/design.md): TOTP enrolment, and the second login step of an
 * enrolled admin, a short-lived single-use `mfaToken` exchanged with a code for the session.
 */
export interface AdminMfaService {
  isEnrolled(userId: string): Promise<boolean>;
  startEnrolment(staff: SignedInUser): Promise<{ secret: string; otpauthUrl: string }>;
  confirmEnrolment(staff: SignedInUser, code: string): Promise<void>;
  /** Opens the second login step of an enrolled admin: the token to send back with the code. */
  openChallenge(userId: string): Promise<string>;
  /** The user whose session may now be issued; throws if the token or the code is not good. */
  completeChallenge(mfaToken: string, code: string): Promise<string>;
  /** Whether the admin has a second factor: TOTP enrolled, or a passkey (docs/design.md, "Passkeys"). */
  hasSecondFactor(userId: string): Promise<boolean>;
  /** The admin a live second step belongs to (nothing is used up), or null. */
  challengeUser(mfaToken: string): Promise<string | null>;
  /** Ends the second step with a passkey assertion the caller has verified; throws if it ended. */
  completeWithPasskey(mfaToken: string): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    adminMfa: AdminMfaService;
  }
}

export const MFA_RULES = { challengeTtlMs: 5 * 60_000, maxAttempts: 5 } as const;
const WRONG_CODE = 'That code is not right. Check the time on your phone and enter the newest code.';
const USED_CODE = 'This code was already used. Wait for the next one.';
const CHALLENGE_ENDED = 'Your sign-in has timed out. Log in again.';

export function createAdminMfaService(deps: {
  db: Database;
  serverSecret: Uint8Array;
  now?: () => Date;
  /** Whether the user has a passkey, which serves as their second factor instead of TOTP. */
  hasPasskey?: (userId: string) => Promise<boolean>;
}): AdminMfaService {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const box = createSecretBox(deps.serverSecret);
  const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

  return {
    async isEnrolled(userId) {
      return Boolean((await findAdminMfa(db, userId))?.enrolledAt);
    },

    async hasSecondFactor(userId) {
      if ((await findAdminMfa(db, userId))?.enrolledAt) return true;
      return deps.hasPasskey ? deps.hasPasskey(userId) : false;
    },

    async challengeUser(mfaToken) {
      return (await findLiveChallenge(db, hashToken(mfaToken), MFA_RULES.maxAttempts, now()))?.userId ?? null;
    },

    async completeWithPasskey(mfaToken) {
      const at = now();
      const challenge = await findLiveChallenge(db, hashToken(mfaToken), MFA_RULES.maxAttempts, at);
      if (!challenge || !(await consumeChallenge(db, challenge.id, at))) {
        throw new AppError('UNAUTHENTICATED', CHALLENGE_ENDED);
      }
      return challenge.userId;
    },

    async startEnrolment(staff) {
      const enrolment = newTotpSecret(staff.user.email);
      // An enrolled secret is never replaced from a session alone: a stolen session must not reset it.
      if (!(await savePendingSecret(db, staff.user.id, box.seal(enrolment.secret)))) {
        throw new AppError('CONFLICT', 'Two-factor authentication is already set up for this account.');
      }
      return enrolment;
    },

    async confirmEnrolment(staff, code) {
      const row = await findAdminMfa(db, staff.user.id);
      if (row?.enrolledAt) {
        throw new AppError('CONFLICT', 'Two-factor authentication is already set up for this account.');
      }
      if (!row) throw new AppError('CONFLICT', 'Start the set-up first: ask for a new secret.');
      const step = totpStep(box.open(row.secretEncrypted), code, now());
      if (step === null) throw new AppError('BAD_REQUEST', WRONG_CODE);
      await db.transaction(async (tx) => {
        if (!(await useStep(tx, staff.user.id, step, true))) throw new AppError('BAD_REQUEST', USED_CODE);
        await recordAdminAction(tx, staff, {
          action: 'admin.mfa_enrolled',
          targetType: 'user',
          targetId: staff.user.id,
        });
      });
    },

    async openChallenge(userId) {
      const token = randomBytes(32).toString('base64url');
      await createChallenge(
        db,
        userId,
        hashToken(token),
        new Date(now().getTime() + MFA_RULES.challengeTtlMs),
      );
      return token;
    },

    async completeChallenge(mfaToken, code) {
      const at = now();
      const challenge = await countChallengeTry(db, hashToken(mfaToken), MFA_RULES.maxAttempts, at);
      if (!challenge) throw new AppError('UNAUTHENTICATED', CHALLENGE_ENDED);
      const row = await findAdminMfa(db, challenge.userId);
      if (!row?.enrolledAt) throw new AppError('UNAUTHENTICATED', CHALLENGE_ENDED);
      const step = totpStep(box.open(row.secretEncrypted), code, at);
      if (step === null) throw new AppError('BAD_REQUEST', WRONG_CODE);
      if (!(await useStep(db, challenge.userId, step, false))) throw new AppError('BAD_REQUEST', USED_CODE);
      if (!(await consumeChallenge(db, challenge.id, at)))
        throw new AppError('UNAUTHENTICATED', CHALLENGE_ENDED);
      return challenge.userId;
    },
  };
}
