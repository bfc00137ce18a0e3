import { RECOVERY_PAYOUT_HOLD_HOURS } from '@offzero/shared/api/passkeys';
import type { UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import type { OtpService } from '../auth/otp.service';
import type { NotificationSender } from '../notifications/notification-sender';
import { writeOutbox } from '../outbox/outbox.repository';
import { countPasskeys, deleteAllPasskeys, insertRecovery } from './passkey.repository';
import type { CeremonyDeps } from './webauthn-ceremonies';

/**
 * Recovery without a passkey (docs/design.md, "Passkeys"): a signed-in customer who lost every passkey
 * proves both contacts with a code each (e-mail and SMS); every passkey is removed, and new payout
 * destinations wait 48 hours, so a thief holding the e-mail alone, or even both, cannot redirect money
 * at once, and the customer has two days of notices to react.
 */
export interface RecoveryDeps extends CeremonyDeps {
  otp: OtpService;
  notifications: NotificationSender;
  outbox: { deliverForUser(userId: string): Promise<void> };
  log: { error(obj: object, msg: string): void };
}

const emailDestination = (user: UserRow) => `${user.id}:${user.email}`;
const smsDestination = (user: UserRow) => `${user.id}:${user.phoneNumber ?? ''}`;

function assertMayRecover(user: UserRow, passkeyCount: number): void {
  if (passkeyCount === 0) throw new AppError('CONFLICT', 'Your account has no passkey to recover from.');
  if (!user.phoneVerified || !user.phoneNumber) {
    throw new AppError('CONFLICT', 'Recovery needs a verified phone number. Contact support.');
  }
}

async function deliver(deps: RecoveryDeps, send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch (error) {
    deps.log.error({ err: error }, 'recovery code not sent');
    throw new AppError('UNAVAILABLE', 'We could not send your codes just now. Try again in a minute.');
  }
}

/** Sends one code to the account's e-mail and one to its verified phone. */
export async function sendRecoveryCodes(deps: RecoveryDeps, user: UserRow, ip: string): Promise<void> {
  assertMayRecover(user, await countPasskeys(deps.db, user.id));
  const emailCode = await deps.otp.issue('recovery-email', emailDestination(user), ip);
  const smsCode = await deps.otp.issue('recovery-sms', smsDestination(user), ip);
  const text = (code: string) =>
    `Your OffZero recovery code is ${code}. It removes the passkeys of your account; new payout ` +
    `addresses then wait ${RECOVERY_PAYOUT_HOLD_HOURS} hours. If you did not ask for it, contact support at once.`;
  await deliver(deps, () =>
    deps.notifications.email.send({
      to: user.email,
      subject: 'Your OffZero recovery code',
      code: emailCode,
      text: text(emailCode),
    }),
  );
  await deliver(deps, () =>
    deps.notifications.sms.send({
      to: user.phoneNumber!,
      subject: 'OffZero',
      code: smsCode,
      text: text(smsCode),
    }),
  );
}

/** Both codes right: every passkey removed, the payout hold starts, and both contacts are told. */
export async function completeRecovery(
  deps: RecoveryDeps,
  user: UserRow,
  codes: { emailCode: string; smsCode: string },
): Promise<Date> {
  assertMayRecover(user, await countPasskeys(deps.db, user.id));
  await deps.otp.verify('recovery-sms', smsDestination(user), codes.smsCode);
  await deps.otp.verify('recovery-email', emailDestination(user), codes.emailCode);
  const at = deps.now();
  const heldUntil = new Date(at.getTime() + RECOVERY_PAYOUT_HOLD_HOURS * 3_600_000);
  const until = `${heldUntil.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  await deps.db.transaction(async (tx) => {
    const removed = await deleteAllPasskeys(tx, user.id);
    await insertRecovery(tx, { userId: user.id, passkeysRemoved: removed, payoutsHeldUntil: heldUntil });
    const text =
      `Your OffZero account was recovered with codes sent to your e-mail and phone, and its ${removed} ` +
      `passkey${removed === 1 ? ' was' : 's were'} removed. For your safety, new payout addresses ` +
      `can receive payouts only from ${until} (${RECOVERY_PAYOUT_HOLD_HOURS} hours). ` +
      'If this was not you, contact support at once.';
    const key = `passkey:recovery:${user.id}:${at.getTime()}`;
    await writeOutbox(tx, [
      {
        eventKey: key,
        channel: 'email',
        recipient: user.email,
        userId: user.id,
        payload: { subject: 'Your OffZero account was recovered', text },
      },
      {
        eventKey: key,
        channel: 'sms',
        recipient: user.phoneNumber!,
        userId: user.id,
        payload: { subject: 'OffZero', text },
      },
    ]);
  });
  await deps.outbox.deliverForUser(user.id);
  return heldUntil;
}
