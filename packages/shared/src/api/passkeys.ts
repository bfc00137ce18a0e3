import { z } from 'zod';
import { bankAccountSchema } from './user-settings';

/**
 * Passkeys (WebAuthn) and the step-up that binds a passkey assertion to one change (docs/design.md,
 * "Passkeys"). The WebAuthn option and response objects are checked by @simplewebauthn on the server;
 * here they are only required to be JSON objects of a sane size.
 */

export const PASSKEY_NAME_MAX = 60;
export const STEP_UP_REFUSED = 'Confirm this change with your passkey.';
/** A step-up challenge, and a passkey login challenge, may be answered within this time. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** After a recovery without a passkey, new payout destinations wait this long. */
export const RECOVERY_PAYOUT_HOLD_HOURS = 48;

const PLAIN_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
export const passkeyNameSchema = z
  .string({ error: 'Give the passkey a name, like "My phone".' })
  .trim()
  .min(1, { error: 'Give the passkey a name, like "My phone".' })
  .max(PASSKEY_NAME_MAX, { error: `A passkey name can be at most ${PASSKEY_NAME_MAX} characters.` })
  .regex(PLAIN_TEXT, { error: 'The name contains characters we cannot accept.' });

const looseText = (max: number) => z.string().trim().max(max);

/**
 * Every change a passkey must confirm, with the details the assertion is bound to: the fields of the
 * guarded call's body that say what changes (read back from that body by the server, so the client
 * sends the same values it is about to submit). A new guarded change adds one entry here.
 */
export const STEP_UP_DETAILS = {
  /** `POST /api/payout-addresses` (an address, an xpub, later a Lightning address): its body. */
  'payout-address.add': z.strictObject({
    label: looseText(200),
    address: looseText(200).optional(),
    xpub: looseText(200).optional(),
  }),
  /** The Settings wallet address, which becomes the address book's default entry. */
  'wallet-address.save': z.strictObject({ walletAddress: looseText(200) }),
  /** The bank account sells are paid out to. */
  'bank-account.save': z.strictObject({ bankAccount: bankAccountSchema }),
  /** The Zelle e-mail sells are paid out to. */
  'zelle-email.save': z.strictObject({ zelleEmail: looseText(320).toLowerCase() }),
  /** `POST /api/user/email/change`. */
  'email.change': z.strictObject({ newEmail: looseText(320).toLowerCase() }),
  /** `POST /api/verification/phone/otp` while signed in with a verified phone. */
  'phone.change': z.strictObject({ phone: looseText(20) }),
  /**
   * `POST /api/plans`: a recurring buy pulls dollars from the customer's bank on a schedule and pays
   * the bitcoin to the address it names, so its funding and address are confirmed like a payout change.
   */
  'plan.create': z.strictObject({
    amountUsd: z.union([z.number(), looseText(40)]),
    frequency: looseText(20),
    payoutAddressId: looseText(100),
  }),
  /**
   * `PUT /api/plans/deposit-buys` turning "Buy bitcoin with every deposit" on: the address every
   * deposit's bitcoin goes to, confirmed like a plan's.
   */
  'deposit-buys.save': z.strictObject({ payoutAddressId: looseText(100) }),
  /**
   * `POST /api/order/save` of a buy paid out to a Lightning invoice or address typed for it: a
   * destination outside the address book, confirmed for exactly that destination.
   */
  'buy.lightning-destination': z.strictObject({ walletAddress: looseText(2000) }),
  /** Registering another passkey once one exists. */
  'passkey.add': z.strictObject({}),
  /** `DELETE /api/passkeys/:id`. */
  'passkey.remove': z.strictObject({ id: looseText(100) }),
} as const;

export type StepUpAction = keyof typeof STEP_UP_DETAILS;
export const STEP_UP_ACTIONS = Object.keys(STEP_UP_DETAILS) as [StepUpAction, ...StepUpAction[]];
export type StepUpDetails<A extends StepUpAction> = z.input<(typeof STEP_UP_DETAILS)[A]>;

/** The header a guarded call carries: base64url of the assertion response JSON. */
export const STEP_UP_HEADER = 'x-step-up';

export const stepUpOptionsRequestSchema = z.strictObject({
  action: z.enum(STEP_UP_ACTIONS, { error: 'This change cannot be confirmed with a passkey.' }),
  details: z.record(z.string(), z.unknown()),
});

/** WebAuthn JSON objects (options the browser reads, responses the server verifies). */
const webAuthnJson = z.record(z.string(), z.unknown());
export const webAuthnOptionsSchema = webAuthnJson;
export const passkeyOptionsResponseSchema = z.object({ options: webAuthnOptionsSchema });

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({
  passkeys: z.array(passkeySchema),
  /** Set for 48 hours after a recovery: new payout destinations wait until then (ISO 8601). */
  payoutHoldUntil: z.string().nullable(),
});
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const registrationOptionsRequestSchema = z.strictObject({ name: passkeyNameSchema });
export const registrationVerifyRequestSchema = z.strictObject({ response: webAuthnJson });
export const passkeyParamsSchema = z.strictObject({ id: z.string().max(100) });
export const renamePasskeySchema = z.strictObject({ name: passkeyNameSchema });
export const passkeyAnswerSchema = z.object({ message: z.string(), passkey: passkeySchema });

export const passkeyLoginOptionsSchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(320).optional(),
});
export const passkeyLoginVerifySchema = z.strictObject({ response: webAuthnJson });
/** An admin's second login step with a passkey instead of a TOTP code. */
export const mfaPasskeyOptionsSchema = z.strictObject({ mfaToken: z.string().min(1).max(200) });
export const mfaPasskeyVerifySchema = z.strictObject({
  mfaToken: z.string().min(1).max(200),
  response: webAuthnJson,
});

export const recoveryVerifySchema = z.strictObject({
  emailCode: z.string().regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your e-mail.' }),
  smsCode: z.string().regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your text message.' }),
});
export const recoveryAnswerSchema = z.object({ message: z.string(), payoutHoldUntil: z.string() });
