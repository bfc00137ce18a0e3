import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import {
  KYC_DOCUMENT_LABEL,
  KYC_DOCUMENT_TYPES,
  KYC_IMAGE_TYPES,
  KYC_MAX_IMAGE_BYTES,
  localKycFormSchema,
  type LocalKycForm,
} from '@offzero/shared/api/kyc';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useSubmitLocalKyc } from '../api/kyc';
import { useJurisdictions } from '../api/jurisdictions';
import { PLACE_MESSAGES, PLACES } from '@offzero/shared/places/places';
import { countryOptions, DEFAULT_COUNTRY } from '../countries';
import { DocumentImageField, type ChosenDocument } from './document-image-field';

export const DOCUMENT_REQUIRED_MESSAGE = 'Upload a photo of your document.';
export const DOCUMENT_TYPE_MESSAGE = 'Upload the document as a JPEG, PNG or WebP image.';
export const DOCUMENT_SIZE_MESSAGE = 'The image can be at most 5 MB.';

type FormField = keyof LocalKycForm;
export type LocalKycValues = Record<FormField, string>;
export type LocalKycErrors = Partial<Record<FormField | 'document', string>>;

const FIELD_ORDER: (FormField | 'document')[] = [
  'legalName',
  'dateOfBirth',
  'country',
  'residenceState',
  'documentType',
  'documentNumber',
  'document',
];

/** Why a chosen image cannot be sent, or null when it can (type and size as the server checks them). */
export function documentImageError(file: File | null): string | null {
  if (!file) return DOCUMENT_REQUIRED_MESSAGE;
  if (!(KYC_IMAGE_TYPES as readonly string[]).includes(file.type)) return DOCUMENT_TYPE_MESSAGE;
  if (file.size === 0 || file.size > KYC_MAX_IMAGE_BYTES) return DOCUMENT_SIZE_MESSAGE;
  return null;
}

/** The form's checks: the shared schema the server applies, and the image. All messages at once. */
export function validateLocalKyc(
  values: LocalKycValues,
  file: File | null,
): { ok: true; form: LocalKycForm; document: File } | { ok: false; errors: LocalKycErrors } {
  // An empty select is no answer: the schema asks a US resident to choose.
  const parsed = localKycFormSchema.safeParse({
    ...values,
    residenceState: values.residenceState || undefined,
  });
  const errors: LocalKycErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && field in values) errors[field as FormField] ??= issue.message;
    }
  }
  const imageError = documentImageError(file);
  if (imageError) errors.document = imageError;
  if (parsed.success && file && !imageError) return { ok: true, form: parsed.data, document: file };
  return { ok: false, errors };
}

/** The form's values (the text fields and the chosen image), read by `validateLocalKyc`. */
const localKycFormValuesSchema = z
  .object({
    legalName: z.string(),
    dateOfBirth: z.string(),
    country: z.string(),
    residenceState: z.string(),
    documentType: z.string(),
    documentNumber: z.string(),
    // The image is checked by validateLocalKyc, with the messages of its own.
    document: z.custom<File | null>(),
  })
  .transform((values, ctx) => {
    const { document, ...fields } = values;
    const result = validateLocalKyc(fields, document);
    if (result.ok) return { ...result.form, document: result.document };
    for (const name of FIELD_ORDER) {
      const message = result.errors[name];
      if (message) ctx.addIssue({ code: 'custom', path: [name], message });
    }
    return z.NEVER;
  });

/** The latest date of birth of an adult today, as the date input's `max`. */
function adultBirthdayLimit(today = new Date()): string {
  const limit = new Date(today.getFullYear() - 18, today.getMonth(), today.getDate());
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${limit.getFullYear()}-${pad(limit.getMonth() + 1)}-${pad(limit.getDate())}`;
}

/** The form with its fields empty but the name on the account. */
function useKycForm(defaultLegalName: string) {
  return useZodForm(localKycFormValuesSchema, {
    defaultValues: {
      legalName: defaultLegalName,
      dateOfBirth: '',
      country: DEFAULT_COUNTRY,
      residenceState: '',
      documentType: '',
      documentNumber: '',
      document: null,
    },
  });
}

type KycForm = ReturnType<typeof useKycForm>;

/** The chosen image, checked as soon as it is chosen, not only when the form is sent. */
function useDocumentImage(form: KycForm) {
  const [document, setDocument] = useState<ChosenDocument | null>(null);

  // The preview's object URL is freed when it is replaced and when the form goes away.
  const preview = document?.preview;
  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [preview]);

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    if (!file) return;
    const problem = documentImageError(file);
    if (problem) form.setError('document', { type: 'value', message: problem });
    else form.clearErrors('document');
    if (problem) {
      event.target.value = '';
      form.setValue('document', null);
      setDocument(null);
      return;
    }
    const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
    form.setValue('document', file);
    setDocument({ file, preview: url });
  }

  return { document, chooseFile };
}

/** Sends the checked form; the server's field messages go on their fields, the first problem in a toast. */
function kycSendHandler(
  form: KycForm,
  submit: ReturnType<typeof useSubmitLocalKyc>,
  onSubmitted: () => void,
) {
  return form.handleSubmit(
    (checked) =>
      submit.mutate(checked, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSubmitted();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errors) {
            for (const [key, message] of Object.entries(error.errors)) {
              if ((FIELD_ORDER as string[]).includes(key)) {
                // The server names the image problem in short words; the message says it in full.
                form.setError(key as FormField | 'document', {
                  type: 'server',
                  message: key === 'document' ? error.message : message,
                });
              }
            }
          }
          toast.error(errorMessage(error));
        },
      }),
    (errors) => {
      const first = firstError(errors, FIELD_ORDER);
      if (first) toast.error(first);
    },
  );
}

/**
 * Where a US customer lives. A place OffZero does not serve says so as soon as it is chosen, before
 * the customer spends any effort on the rest (docs/design.md, "Places and the scam shield").
 */
function ResidenceStateField({ form, chosen }: { form: KycForm; chosen: string }) {
  const jurisdictions = useJurisdictions();
  const rule = jurisdictions.data?.jurisdictions.find((place) => place.code === chosen);
  const closed = rule !== undefined && !rule.buy && !rule.sell;
  return (
    <div className="space-y-2">
      <SelectField
        label="State or territory you live in"
        autoComplete="address-level1"
        {...form.textField('residenceState')}
      >
        <option value="" disabled>
          Choose your state
        </option>
        {PLACES.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </SelectField>
      {closed && (
        <p
          role="alert"
          data-testid="place-closed"
          className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900"
        >
          {PLACE_MESSAGES.closed(rule.name)} You cannot buy or sell here, so there is no need to verify your
          identity now.
        </p>
      )}
    </div>
  );
}

/**
 * The demo verification form (provider 'local'): the customer's legal identity and a photo of their
 * document. A back-office reviewer decides; until then the status is 'Under Review'.
 */
export function LocalKycFormView({
  formId,
  defaultLegalName,
  submit,
  onSubmitted,
}: {
  formId: string;
  defaultLegalName: string;
  submit: ReturnType<typeof useSubmitLocalKyc>;
  onSubmitted: () => void;
}) {
  const form = useKycForm(defaultLegalName);
  const { document, chooseFile } = useDocumentImage(form);
  const fileId = useId();
  const onSubmit = kycSendHandler(form, submit, onSubmitted);
  const countries = countryOptions();
  const country = form.watch('country');
  const residenceState = form.watch('residenceState');

  return (
    <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
      <TextField
        label="Full legal name"
        autoComplete="name"
        maxLength={120}
        {...form.textField('legalName')}
        hint="As it is written on your document."
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Date of birth"
          type="date"
          autoComplete="bday"
          min="1900-01-01"
          max={adultBirthdayLimit()}
          {...form.textField('dateOfBirth')}
        />
        <SelectField label="Country" autoComplete="country" {...form.textField('country')}>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
      </div>
      {country === 'US' && <ResidenceStateField form={form} chosen={residenceState} />}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField label="Document type" {...form.textField('documentType')}>
          <option value="" disabled>
            Choose a document
          </option>
          {KYC_DOCUMENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {KYC_DOCUMENT_LABEL[type]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Document number"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={30}
          {...form.textField('documentNumber')}
        />
      </div>

      <DocumentImageField
        fileId={fileId}
        document={document}
        error={form.errorOf('document')}
        onChange={chooseFile}
      />
      <p className="text-xs leading-5 text-slate-500">
        Your details and document are used only to verify your identity, as US law requires for buying and
        selling bitcoin.
      </p>
    </form>
  );
}
