import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema, sessionResponseSchema } from '@offzero/shared/api/accounts';
import { withPasskeyStepUp } from '../../../lib/passkey-step-up';
import { apiPost } from '../../../lib/api-client';

// The phone steps run in two places: registration steps 3 and 4 (authorized by the registration token
// of step 2) and the dashboard's Verify Phone dialog (authorized by the session's bearer token).

export interface PhoneCodeInput {
  email: string;
  /** E.164, e.g. +12025550123. */
  phone: string;
  /** Present during registration; absent when signed in. */
  registrationToken?: string;
  /** Changing a verified number: the security code sent to the account's e-mail (step-up). */
  stepUpCode?: string;
}

function phoneBody({ email, phone, registrationToken }: PhoneCodeInput) {
  return registrationToken ? { email, phone, registrationToken } : { email, phone };
}

/** Before a verified number is changed: a security code to the account's current e-mail. */
export function sendStepUpCode() {
  return apiPost('/user/step-up/send', {}, { schema: messageResponseSchema });
}

/** Sends (or sends again) the SMS code. */
export function sendPhoneCode(input: PhoneCodeInput) {
  const body = input.stepUpCode ? { ...phoneBody(input), stepUpCode: input.stepUpCode } : phoneBody(input);
  const send = (headers?: Record<string, string>) =>
    apiPost('/verification/phone/otp', body, {
      schema: messageResponseSchema,
      // During registration a 401 means the registration timed out: a message to show, not a lost session.
      on401: input.registrationToken ? 'throw' : 'end-session',
      headers,
    });
  // A change of a verified number, with its e-mailed code: a passkey confirms it too (docs/design.md).
  return input.stepUpCode ? withPasskeyStepUp('phone.change', { phone: body.phone }, send) : send();
}

export function verifyPhone(input: PhoneCodeInput & { code: string }) {
  return apiPost(
    '/verification/verify/phone',
    { ...phoneBody(input), code: input.code },
    { schema: sessionResponseSchema, on401: input.registrationToken ? 'throw' : 'end-session' },
  );
}

export const useSendStepUpCode = () => useMutation({ mutationFn: sendStepUpCode });
export const useSendPhoneCode = () => useMutation({ mutationFn: sendPhoneCode });
export const useVerifyPhone = () => useMutation({ mutationFn: verifyPhone });
