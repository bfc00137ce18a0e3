import { useId } from 'react';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import {
  BANK_ROUTING_OR_SWIFT_MESSAGE,
  bankAccountSchema,
  type BankAccount,
  type UserSettings,
} from '@offzero/shared/api/user-settings';
import { errorMessage } from '../../../lib/api-client';
import { applyServerErrors, firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { useSaveBankAccount } from '../../../domain/user-settings';

type BankField = keyof BankAccount;
export type BankFormValues = Record<BankField, string>;
export type BankFormErrors = Partial<Record<BankField, string>>;

const FIELDS: BankField[] = [
  'account_name',
  'account_number',
  'bank_name',
  'address',
  'routing_number',
  'swift',
];

const emptyValues: BankFormValues = {
  account_name: '',
  account_number: '',
  bank_name: '',
  address: '',
  routing_number: '',
  swift: '',
};

/**
 * The bank form's checks: holder name, account number, bank name and address
 * required; a routing number (ACH) or a SWIFT code (wire), at least one. All messages at once, so the
 * customer fixes everything in one go; the shared schema is the one the server applies.
 */
export function validateBankForm(
  values: BankFormValues,
): { ok: true; bankAccount: BankAccount } | { ok: false; errors: BankFormErrors } {
  const parsed = bankAccountSchema.safeParse(values);
  if (parsed.success) return { ok: true, bankAccount: parsed.data };
  const errors: BankFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && FIELDS.includes(field as BankField)) {
      errors[field as BankField] ??= issue.message;
    }
  }
  // The schema checks "routing or SWIFT" only once every field is right; say it straight away too.
  if (values.routing_number.trim() === '' && values.swift.trim() === '') {
    errors.routing_number ??= BANK_ROUTING_OR_SWIFT_MESSAGE;
  }
  return { ok: false, errors };
}

/** The bank form: its text fields, read by `validateBankForm` into the account to save. */
const bankFormSchema = z
  .object({
    account_name: z.string(),
    account_number: z.string(),
    bank_name: z.string(),
    address: z.string(),
    routing_number: z.string(),
    swift: z.string(),
  })
  .transform((values, ctx): BankAccount => {
    const result = validateBankForm(values);
    if (result.ok) return result.bankAccount;
    for (const name of FIELDS) {
      const message = result.errors[name];
      if (message) ctx.addIssue({ code: 'custom', path: [name], message });
    }
    return z.NEVER;
  });

/** Add or change the bank account (settings card and the dashboard's Add Bank tile). */
export function BankAccountModal({
  open,
  onClose,
  bankAccount,
}: {
  open: boolean;
  onClose: () => void;
  bankAccount: UserSettings['bankAccount'];
}) {
  const formId = useId();
  const save = useSaveBankAccount();
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!save.isPending}
      size="lg"
      title={bankAccount ? 'Edit bank account' : 'Add bank account'}
      description="Where we send US dollars when you sell bitcoin."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <BankAccountForm
        formId={formId}
        initial={bankAccount ? { ...emptyValues, ...bankAccount } : emptyValues}
        save={save}
        onSaved={onClose}
      />
    </Modal>
  );
}

function BankAccountForm({
  formId,
  initial,
  save,
  onSaved,
}: {
  formId: string;
  initial: BankFormValues;
  save: ReturnType<typeof useSaveBankAccount>;
  onSaved: () => void;
}) {
  const form = useZodForm(bankFormSchema, { defaultValues: initial });

  function field(name: BankField) {
    return form.textField(name, () => {
      // Either code satisfies "routing number or SWIFT code".
      if (
        name === 'swift' &&
        form.getFieldState('routing_number').error?.message === BANK_ROUTING_OR_SWIFT_MESSAGE
      ) {
        form.clearErrors('routing_number');
      }
    });
  }

  const submit = form.handleSubmit(
    (bankAccount) =>
      save.mutate(bankAccount, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSaved();
        },
        onError: (error) => {
          applyServerErrors(form, error, FIELDS, (key) => key.replace(/^bankAccount\./, ''));
          toast.error(errorMessage(error));
        },
      }),
    (errors) => {
      const first = firstError(errors, FIELDS);
      if (first) toast.error(first);
    },
  );

  return (
    <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <TextField
        label="Account holder name"
        autoComplete="name"
        maxLength={100}
        hint="The account holder name must match the account name on OffZero."
        {...field('account_name')}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Account number"
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          maxLength={34}
          {...field('account_number')}
        />
        <TextField label="Bank name" autoComplete="off" maxLength={100} {...field('bank_name')} />
      </div>
      <TextField label="Bank address" autoComplete="off" maxLength={200} {...field('address')} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Routing number"
          inputMode="numeric"
          autoComplete="off"
          maxLength={9}
          placeholder="9 digits"
          hint="Routing number for ACH transfers."
          {...field('routing_number')}
        />
        <TextField
          label="SWIFT code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={11}
          placeholder="8 or 11 characters"
          hint="SWIFT is required for wire transfers."
          {...field('swift')}
        />
      </div>
      <p className="text-sm text-slate-500">Enter a routing number, a SWIFT code, or both.</p>
    </form>
  );
}
