import { z } from 'zod';
import { OTP_MESSAGE } from '@offzero/shared/api/accounts';
import { phoneSchema } from '@offzero/shared/api/phone';
import { codeFormSchema, type CodeForm } from './validation';

// The phone steps' forms. Apart from ./validation because the phone rules bring libphonenumber's
// metadata, which only the screens that take a phone number should load.

/**
 * The SMS code step checks the phone it was sent to as well, and reports a bad number as a missing
 * code.
 */
export function smsCodeFormSchema(phone: string): z.ZodType<{ code: string }, CodeForm> {
  return phoneSchema.safeParse(phone).success
    ? codeFormSchema
    : z.object({ code: z.string().refine(() => false, { error: OTP_MESSAGE }) });
}

/** The phone number (E.164 from the phone field, undefined while nothing usable is typed). */
export const phoneFormSchema = z
  .object({ phone: z.string().optional() })
  .pipe(z.object({ phone: phoneSchema }));
