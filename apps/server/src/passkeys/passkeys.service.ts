import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Database } from '../db/database';
import type { UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import type { OtpService } from '../auth/otp.service';
import type { NotificationSender } from '../notifications/notification-sender';
import { listPasskeys, payoutHoldUntil, type PasskeyRow } from './passkey.repository';
import { findOwn, registrationOptions, remove, rename, verifyRegistration } from './passkey-registration';
import { loginOptions, secondFactorOptions, verifyLogin, verifySecondFactor } from './passkey-login';
import { completeRecovery, sendRecoveryCodes } from './passkey-recovery';
import { createStepUpService, type StepUpService } from './step-up';
import { relyingPartyOf } from './webauthn-ceremonies';

type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export interface PasskeysDeps {
  db: Database;
  publicUrl: string;
  otp: OtpService;
  notifications: NotificationSender;
  outbox: { deliverForUser(userId: string): Promise<void> };
  findUser: (userId: string) => Promise<UserRow | null>;
  findUserByEmail: (email: string) => Promise<UserRow | null>;
  log: Log;
  now?: () => Date;
}

/** Passkeys (docs/design.md, "Passkeys"): registration, the list, login, an admin's second step, recovery. */
export interface PasskeysService {
  stepUp: StepUpService;
  list(userId: string): Promise<{ passkeys: PasskeyRow[]; payoutHoldUntil: Date | null }>;
  registrationOptions(user: UserRow, name: string): Promise<PublicKeyCredentialCreationOptionsJSON>;
  verifyRegistration(user: UserRow, response: RegistrationResponseJSON): Promise<PasskeyRow>;
  /** One of the user's own passkeys; another user's, or none: 404. */
  findOwn(userId: string, id: string): Promise<PasskeyRow>;
  rename(userId: string, id: string, name: string): Promise<PasskeyRow>;
  remove(user: UserRow, id: string): Promise<PasskeyRow>;
  loginOptions(email: string | undefined): Promise<PublicKeyCredentialRequestOptionsJSON>;
  verifyLogin(response: AuthenticationResponseJSON): Promise<UserRow>;
  secondFactorOptions(userId: string, mfaToken: string): Promise<PublicKeyCredentialRequestOptionsJSON>;
  verifySecondFactor(userId: string, mfaToken: string, response: AuthenticationResponseJSON): Promise<void>;
  sendRecoveryCodes(user: UserRow, ip: string): Promise<void>;
  completeRecovery(user: UserRow, codes: { emailCode: string; smsCode: string }): Promise<Date>;
  /** The account a completed login step signs in: enabled, else 401. */
  userForSession(userId: string): Promise<UserRow>;
  /** When a recovery's payout hold ends for this user, if one is running (the address book asks). */
  payoutHoldUntil(userId: string): Promise<Date | null>;
}

export function createPasskeysService(deps: PasskeysDeps): PasskeysService {
  const now = deps.now ?? (() => new Date());
  const ceremony = { db: deps.db, party: relyingPartyOf(deps.publicUrl), now };
  const login = {
    ...ceremony,
    findUser: deps.findUser,
    findUserByEmail: deps.findUserByEmail,
    log: deps.log,
  };
  const recovery = {
    ...ceremony,
    otp: deps.otp,
    notifications: deps.notifications,
    outbox: deps.outbox,
    log: deps.log,
  };
  return {
    stepUp: createStepUpService({ ...ceremony, log: deps.log }),
    async list(userId) {
      return {
        passkeys: await listPasskeys(deps.db, userId),
        payoutHoldUntil: await payoutHoldUntil(deps.db, userId, now()),
      };
    },
    registrationOptions: (user, name) => registrationOptions(ceremony, user, name),
    async verifyRegistration(user, response) {
      const passkey = await verifyRegistration({ ...ceremony, log: deps.log }, user, response);
      await deps.outbox.deliverForUser(user.id);
      return passkey;
    },
    findOwn: (userId, id) => findOwn(ceremony, userId, id),
    rename: (userId, id, name) => rename(ceremony, userId, id, name),
    async remove(user, id) {
      const removed = await remove(ceremony, user, id);
      await deps.outbox.deliverForUser(user.id);
      return removed;
    },
    loginOptions: (email) => loginOptions(login, email),
    verifyLogin: (response) => verifyLogin(login, response),
    secondFactorOptions: (userId, mfaToken) => secondFactorOptions(ceremony, userId, mfaToken),
    verifySecondFactor: (userId, mfaToken, response) => verifySecondFactor(login, userId, mfaToken, response),
    sendRecoveryCodes: (user, ip) => sendRecoveryCodes(recovery, user, ip),
    completeRecovery: (user, codes) => completeRecovery(recovery, user, codes),
    payoutHoldUntil: (userId) => payoutHoldUntil(deps.db, userId, now()),
    async userForSession(userId) {
      const user = await deps.findUser(userId);
      if (!user || user.disabledAt)
        throw new AppError('UNAUTHENTICATED', 'Your sign-in has timed out. Log in again.');
      return user;
    },
  };
}
