import { toast } from '../../lib/toast';
import { CopyIcon } from './icons';

export const COPIED_MESSAGE = 'Text Copied!';

/** Puts `text` on the clipboard: 'Text Copied!' on success, a failure is only logged. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(COPIED_MESSAGE);
  } catch (error) {
    console.error('Could not copy to the clipboard', error);
  }
}

/** A small round copy icon button; `label` is its accessible name ("Copy referral code"). */
export function CopyButton({
  text,
  label,
  size = 'md',
  className,
}: {
  text: string;
  label: string;
  size?: 'sm' | 'md';
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={() => void copyText(text)}
      aria-label={label}
      title={label}
      className={`inline-flex shrink-0 items-center justify-center rounded-full text-slate-500 ring-1 ring-slate-200 transition-colors hover:bg-brand-50 hover:text-brand-700 hover:ring-brand-200 ${
        size === 'sm' ? 'size-8' : 'size-10'
      } ${className ?? ''}`}
    >
      <CopyIcon className={size === 'sm' ? 'size-4' : 'size-4.5'} />
    </button>
  );
}
