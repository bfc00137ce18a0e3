import { CheckIcon } from '../../../components/ui/icons';
import { orderNumber } from '../../../lib/format';
import { stepHeadingProps } from './step-heading';

/** The success step's opening: a green check and the two sentences. */
export function SuccessHeader({ orderId }: { orderId: string }) {
  return (
    <div className="text-center">
      <span className="mx-auto inline-flex size-14 items-center justify-center rounded-full bg-emerald-500 text-white shadow-sm shadow-emerald-500/30">
        <CheckIcon className="size-8" strokeWidth={2.4} />
      </span>
      <h3 {...stepHeadingProps} className="mt-4 text-lg font-semibold text-ink-900 outline-none">
        Thank you for the purchase!
      </h3>
      <p className="mt-1 text-sm text-slate-600">Order #{orderNumber(orderId)} has been created.</p>
    </div>
  );
}
