import type { ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import { saveW9Schema, TIN_TYPES, US_STATES, type SaveW9Request, type W9 } from '@offzero/shared/api/tax';
import { errorMessage } from '../../../lib/api-client';
import { applyServerErrors, firstError, useZodForm } from '../../../lib/forms';
import { useSaveTaxDetails } from '../../../domain/tax-details';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';

const FIELDS = ['legalName', 'tinType', 'tin', 'line1', 'city', 'state', 'postalCode', 'certify'] as const;
/** One toast for the form: a success replaces the error of an earlier try instead of stacking under it. */
const TOAST_ID = 'w9-form';
type Field = (typeof FIELDS)[number];

export interface W9FormValues {
  legalName: string;
  tinType: string;
  tin: string;
  line1: string;
  city: string;
  state: string;
  postalCode: string;
  certify: boolean;
}

/** The form's flat fields, checked by the shared W-9 schema (the server's own rules). */
const w9FormSchema = z
  .object({
    legalName: z.string(),
    tinType: z.string(),
    tin: z.string(),
    line1: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    certify: z.boolean(),
  })
  .transform((values, ctx): SaveW9Request => {
    const body = {
      legalName: values.legalName,
      tinType: values.tinType,
      tin: values.tin,
      address: { line1: values.line1, city: values.city, state: values.state, postalCode: values.postalCode },
      certify: values.certify,
    };
    const parsed = saveW9Schema.safeParse(body);
    if (parsed.success) return body as SaveW9Request;
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[issue.path[0] === 'address' ? 1 : 0]);
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
    return z.NEVER;
  });

const TIN_LABELS: Record<string, string> = {
  SSN: 'Social Security number (SSN)',
  EIN: 'Employer ID number (EIN)',
  ITIN: 'Individual taxpayer ID (ITIN)',
};

/**
 * Form W-9 (docs/design.md): the legal name, the taxpayer identification number and the address the IRS
 * knows, certified by the customer. The number is sent once and never shown again in full: an existing
 * W-9 pre-fills everything but the number, which must be typed again to file a new one.
 */
export function W9Form({
  formId,
  current,
  onSaved,
  footer,
}: {
  formId: string;
  current: W9 | null;
  onSaved: (w9: W9) => void;
  /** Controls at the end of the form (a submit button), told whether a save is in flight. */
  footer?: (saving: boolean) => ReactNode;
}) {
  const save = useSaveTaxDetails();
  const form = useZodForm(w9FormSchema, {
    defaultValues: {
      legalName: current?.legalName ?? '',
      tinType: current?.tinType ?? 'SSN',
      tin: '',
      line1: current?.address.line1 ?? '',
      city: current?.address.city ?? '',
      state: current?.address.state ?? '',
      postalCode: current?.address.postalCode ?? '',
      certify: false,
    },
  });
  const tinType = form.watch('tinType');

  const submit = form.handleSubmit(
    (body) =>
      save.mutate(body, {
        onSuccess: (answer) => {
          toast.success(answer.message, { id: TOAST_ID });
          onSaved(answer.w9);
        },
        onError: (error) => {
          applyServerErrors(form, error, FIELDS, (key) => key.replace(/^address\./, ''));
          toast.error(errorMessage(error), { id: TOAST_ID });
        },
      }),
    (errors) => {
      const first = firstError(errors, [...FIELDS]);
      if (first) toast.error(first, { id: TOAST_ID });
    },
  );

  return (
    <form
      id={formId}
      noValidate
      onSubmit={(event) => void submit(event)}
      className="@container space-y-4"
      data-testid="w9-form"
      aria-busy={save.isPending}
    >
      <TextField
        label="Legal name"
        autoComplete="name"
        maxLength={100}
        hint="As shown on your income tax return (for a business: its legal name)."
        {...form.textField('legalName')}
      />
      {/* The type and the number each take a whole row: the form is as narrow as the trade widget, and
          a select cuts its chosen option off. */}
      <div className="space-y-4">
        <SelectField
          label="Taxpayer ID type"
          error={form.errorOf('tinType')}
          {...form.register('tinType', { onChange: () => form.clearErrors('tin') })}
        >
          {TIN_TYPES.map((type) => (
            <option key={type} value={type}>
              {TIN_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <TextField
          label={`${tinType === 'EIN' ? 'EIN' : tinType === 'ITIN' ? 'ITIN' : 'SSN'}`}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={11}
          placeholder={tinType === 'EIN' ? '12-3456789' : '123-45-6789'}
          hint={current ? `On file: ${current.tin}. Type the full number to file again.` : '9 digits.'}
          {...form.textField('tin')}
        />
      </div>
      <TextField
        label="Street address"
        autoComplete="address-line1"
        maxLength={120}
        {...form.textField('line1')}
      />
      <div className="grid grid-cols-1 gap-4 @md:grid-cols-[1fr_7rem_8rem]">
        <TextField label="City" autoComplete="address-level2" maxLength={60} {...form.textField('city')} />
        <SelectField
          label="State"
          autoComplete="address-level1"
          error={form.errorOf('state')}
          {...form.register('state', { onChange: () => form.clearErrors('state') })}
        >
          <option value="">—</option>
          {US_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </SelectField>
        <TextField
          label="ZIP code"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          {...form.textField('postalCode')}
        />
      </div>
      <CertifyBox form={form} />
      {footer?.(save.isPending)}
    </form>
  );
}

function CertifyBox({ form }: { form: ReturnType<typeof useZodForm<W9FormValues, SaveW9Request>> }) {
  const error = form.errorOf('certify');
  return (
    <div>
      <label className="flex items-start gap-3 rounded-xl bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-slate-200">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
          aria-invalid={error ? true : undefined}
          {...form.register('certify', { onChange: () => form.clearErrors('certify') })}
        />
        <span>
          Under penalties of perjury, I certify that the number shown is my correct taxpayer identification
          number, that I am not subject to backup withholding, and that I am a U.S. citizen or other U.S.
          person.
        </span>
      </label>
      {error && (
        <p role="alert" className="mt-1.5 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

export type { Field as W9Field };
