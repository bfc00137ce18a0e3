import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  KYC_DOCUMENT_LABEL,
  KYC_DOCUMENT_TYPES,
  KYC_IMAGE_TYPES,
  KYC_MAX_IMAGE_BYTES,
  localKycFormSchema,
  type LocalKycForm,
} from '@offzero/shared/api/kyc';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { SelectField } from '../../../components/ui/select-field';
import { FieldMessage, TextField } from '../../../components/ui/text-field';
import { IdCardIcon } from '../../../components/ui/icons';
import { useSubmitLocalKyc } from '../api/kyc';
import { countryOptions, DEFAULT_COUNTRY } from '../countries';

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
  const parsed = localKycFormSchema.safeParse(values);
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

/** The latest date of birth of an adult today, as the date input's `max`. */
function adultBirthdayLimit(today = new Date()): string {
  const limit = new Date(today.getFullYear() - 18, today.getMonth(), today.getDate());
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${limit.getFullYear()}-${pad(limit.getMonth() + 1)}-${pad(limit.getDate())}`;
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
  const [values, setValues] = useState<LocalKycValues>({
    legalName: defaultLegalName,
    dateOfBirth: '',
    country: DEFAULT_COUNTRY,
    documentType: '',
    documentNumber: '',
  });
  const [document, setDocument] = useState<{ file: File; preview: string | null } | null>(null);
  const [errors, setErrors] = useState<LocalKycErrors>({});
  const fileId = useId();

  // The preview's object URL is freed when it is replaced and when the form goes away.
  const preview = document?.preview;
  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [preview]);

  function change(name: FormField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    };
  }

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    if (!file) return;
    const problem = documentImageError(file);
    setErrors((current) => ({ ...current, document: problem ?? undefined }));
    if (problem) {
      event.target.value = '';
      setDocument(null);
      return;
    }
    const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
    setDocument({ file, preview: url });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateLocalKyc(values, document?.file ?? null);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELD_ORDER.map((name) => result.errors[name]).find(Boolean);
      if (first) toast.error(first);
      return;
    }
    setErrors({});
    submit.mutate(
      { ...result.form, document: result.document },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSubmitted();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errors) {
            const fromServer: LocalKycErrors = {};
            for (const [key, message] of Object.entries(error.errors)) {
              if ((FIELD_ORDER as string[]).includes(key)) {
                // The server names the image problem in short words; the message says it in full.
                fromServer[key as FormField | 'document'] = key === 'document' ? error.message : message;
              }
            }
            setErrors(fromServer);
          }
          toast.error(errorMessage(error));
        },
      },
    );
  }

  const countries = countryOptions();

  return (
    <form id={formId} noValidate onSubmit={onSubmit} className="space-y-4">
      <TextField
        label="Full legal name"
        name="legalName"
        autoComplete="name"
        maxLength={120}
        value={values.legalName}
        onChange={change('legalName')}
        error={errors.legalName}
        hint="As it is written on your document."
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Date of birth"
          name="dateOfBirth"
          type="date"
          autoComplete="bday"
          min="1900-01-01"
          max={adultBirthdayLimit()}
          value={values.dateOfBirth}
          onChange={change('dateOfBirth')}
          error={errors.dateOfBirth}
        />
        <SelectField
          label="Country"
          name="country"
          autoComplete="country"
          value={values.country}
          onChange={change('country')}
          error={errors.country}
        >
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          label="Document type"
          name="documentType"
          value={values.documentType}
          onChange={change('documentType')}
          error={errors.documentType}
        >
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
          name="documentNumber"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={30}
          value={values.documentNumber}
          onChange={change('documentNumber')}
          error={errors.documentNumber}
        />
      </div>

      <div>
        <p id={`${fileId}-label`} className="block text-sm font-medium text-slate-700">
          Document image
        </p>
        <label
          className={`mt-1.5 flex cursor-pointer items-center gap-4 rounded-xl border border-dashed p-4 transition-colors hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500/40 ${
            errors.document ? 'border-red-500' : 'border-slate-300'
          }`}
        >
          <input
            id={fileId}
            type="file"
            name="document"
            accept={KYC_IMAGE_TYPES.join(',')}
            onChange={chooseFile}
            aria-labelledby={`${fileId}-label`}
            aria-invalid={errors.document ? true : undefined}
            aria-describedby={errors.document ? `${fileId}-message` : `${fileId}-help`}
            className="sr-only"
          />
          {document?.preview ? (
            <img
              src={document.preview}
              alt="Preview of your document"
              className="size-16 shrink-0 rounded-lg object-cover ring-1 ring-slate-200"
            />
          ) : (
            <span className="inline-flex size-16 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <IdCardIcon className="size-7" />
            </span>
          )}
          <span className="min-w-0 text-sm">
            <span className="block font-semibold break-all text-ink-900">
              {document ? document.file.name : 'Choose a photo of your document'}
            </span>
            <span id={`${fileId}-help`} className="mt-0.5 block text-slate-500">
              {document
                ? 'Choose again to use another photo.'
                : 'JPEG, PNG or WebP, up to 5 MB, with all four corners visible.'}
            </span>
          </span>
        </label>
        <FieldMessage id={`${fileId}-message`} error={errors.document} />
      </div>
      <p className="text-xs leading-5 text-slate-500">
        Your details and document are used only to verify your identity, as US law requires for buying and
        selling bitcoin.
      </p>
    </form>
  );
}
