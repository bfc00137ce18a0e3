import { z } from 'zod';
import { isPlaceCode, PLACE_MESSAGES } from '../places/places';

/** Identity verification. YELLOW = Under Review, GREEN = Approved, RED = Rejected. */
export const KYC_STATUSES = ['GREEN', 'YELLOW', 'RED'] as const;
export const kycStatusSchema = z.enum(KYC_STATUSES);
export type KycStatusValue = z.infer<typeof kycStatusSchema>;
/** Who decided a verification: our own check (demo, staff) or Sumsub. */
export const KYC_PROVIDERS = ['local', 'sumsub'] as const;

export const KYC_STATUS_LABEL: Record<KycStatusValue, string> = {
  YELLOW: 'Under Review',
  GREEN: 'Approved',
  RED: 'Rejected',
};

export const kycRecordSchema = z.object({
  _id: z.string(),
  status: kycStatusSchema,
  reviewNote: z.string().nullable(),
  /** Why the verification was not approved, in full (RED only): the customer acts on it. */
  reason: z.string().optional(),
});
export const kycResponseSchema = z.object({ kyc: kycRecordSchema.nullable() });

export const kycTokenResponseSchema = z.object({
  provider: z.enum(KYC_PROVIDERS),
  token: z.string().nullable(),
});

export const KYC_DOCUMENT_TYPES = ['passport', 'drivers_license', 'id_card'] as const;
export const KYC_DOCUMENT_LABEL: Record<(typeof KYC_DOCUMENT_TYPES)[number], string> = {
  passport: 'Passport',
  drivers_license: "Driver's license",
  id_card: 'National ID card',
};
export const KYC_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const KYC_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const PLAIN_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

/** The demo verification form's fields (the document image travels beside them). */
export const localKycFormSchema = z
  .strictObject({
    legalName: z
      .string()
      .trim()
      .min(2, { error: 'Enter your full legal name.' })
      .max(120, { error: 'Your legal name can be at most 120 characters.' })
      .regex(PLAIN_TEXT, { error: 'Your legal name contains characters we cannot accept.' }),
    dateOfBirth: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Enter your date of birth.' })
      .refine((value) => isAdultOn(value, new Date()), { error: 'You must be at least 18 years old.' }),
    country: z.string().regex(/^[A-Z]{2}$/, { error: 'Choose your country.' }),
    documentType: z.enum(KYC_DOCUMENT_TYPES, { error: 'Choose a document type.' }),
    documentNumber: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{4,30}$/, {
        error: 'Enter the document number: 4 to 30 letters, digits or dashes.',
      }),
    /** Where a US resident lives: a state, DC or territory code (docs/design.md, "Places and the scam shield"). */
    residenceState: z
      .string()
      .refine((code) => isPlaceCode(code), { error: PLACE_MESSAGES.chooseState })
      .optional(),
  })
  .refine((form) => form.country !== 'US' || form.residenceState !== undefined, {
    error: PLACE_MESSAGES.chooseState,
    path: ['residenceState'],
  });
export type LocalKycForm = z.infer<typeof localKycFormSchema>;

/** True when the ISO date is a real date at least 18 and at most 120 years before `today`. */
export function isAdultOn(isoDate: string, today: Date): boolean {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (birth.getUTCFullYear() !== y || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d) return false;
  const eighteenth = new Date(Date.UTC(y + 18, m - 1, d));
  const oldest = new Date(Date.UTC(today.getUTCFullYear() - 120, today.getUTCMonth(), today.getUTCDate()));
  return eighteenth <= today && birth >= oldest;
}
