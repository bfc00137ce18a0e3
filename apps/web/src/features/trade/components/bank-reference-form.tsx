import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import { useZodForm } from '../../../lib/forms';
import { ArrowRightIcon, CheckIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useAddBankReference } from '../api/order-calls';

export const BANK_REFERENCE_ADDED = 'Bank Tx Ref No. Added';

/** The reference as the order update takes it (at most 200 characters); blank is not sent. */
const bankReferenceFormSchema = z.object({ bankTxn: z.string().trim().min(1).max(200) });

/**
 * The payment proof of a buy paid by bank transfer: the customer's transfer
 * reference, sent with the submit icon. Blank text is ignored; a failure is only logged (spec
 * section 8); once added it shows 'Bank Tx Ref No. Added'.
 */
export function BankReferenceForm({ orderId, compact = false }: { orderId: string; compact?: boolean }) {
  const id = useId();
  const [added, setAdded] = useState(false);
  const addReference = useAddBankReference();
  const form = useZodForm(bankReferenceFormSchema, { defaultValues: { bankTxn: '' } });
  // A blank reference is simply not sent: there is no message to show for it.
  const submit = form.handleSubmit(({ bankTxn }) => {
    if (addReference.isPending) return;
    addReference.mutate(
      { orderId, bankTxn },
      {
        onSuccess: (answer) => {
          setAdded(true);
          toast.success(answer.message);
        },
        onError: (error) => console.error('Could not add the bank reference', error),
      },
    );
  });

  if (added) {
    return (
      <p className="inline-flex items-center gap-1.5 text-sm font-medium text-emerald-700" role="status">
        <CheckIcon className="size-4" />
        {BANK_REFERENCE_ADDED}
      </p>
    );
  }

  return (
    <form
      className={compact ? 'w-full min-w-36' : 'w-full'}
      onSubmit={(event) => {
        event.stopPropagation();
        void submit(event);
      }}
      onClick={(event) => event.stopPropagation()}
    >
      <label htmlFor={id} className={compact ? 'sr-only' : 'text-sm font-medium text-slate-700'}>
        Add Bank Tx Ref No.
      </label>
      <div
        className={`flex items-center gap-1 rounded-xl border border-slate-300 bg-white pl-3 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30 ${
          compact ? '' : 'mt-1.5'
        }`}
      >
        <input
          id={id}
          {...form.register('bankTxn')}
          placeholder="Add Bank Tx Ref No."
          maxLength={200}
          autoComplete="off"
          className={`w-full min-w-0 flex-1 bg-transparent text-base text-ink-900 outline-none placeholder:text-slate-500 sm:text-sm ${
            compact ? 'h-9' : 'h-11'
          }`}
        />
        <button
          type="submit"
          aria-label="Submit bank reference"
          disabled={addReference.isPending}
          className={`inline-flex shrink-0 items-center justify-center rounded-lg text-ink-900 hover:bg-brand-50 disabled:opacity-60 ${
            compact ? 'size-9' : 'size-11'
          }`}
        >
          {addReference.isPending ? <Spinner /> : <ArrowRightIcon className="size-4.5" />}
        </button>
      </div>
    </form>
  );
}
