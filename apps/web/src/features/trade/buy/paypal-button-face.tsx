import { Spinner } from '../../../components/ui/spinner';

/** PayPal's yellow button, drawn for the demo sandbox (the real one comes from PayPal's script). */
export function PayPalButtonFace({
  onClick,
  loading,
  disabled,
}: {
  onClick: () => void;
  loading: boolean;
  disabled: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-full bg-[#ffc439] text-base font-semibold text-[#003087] transition-colors hover:bg-[#f2ba36] disabled:cursor-not-allowed disabled:opacity-60"
    >
      {loading && <Spinner />}
      <span>
        Pay with <span className="font-bold italic">Pay</span>
        <span className="font-bold text-[#009cde] italic">Pal</span>
      </span>
    </button>
  );
}
