import { useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons';
import { useDialogFocus } from './use-dialog-focus';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom (Save, Cancel...). */
  footer?: ReactNode;
  /** While true (a save in flight), Escape, the backdrop and the close button do nothing. */
  dismissible?: boolean;
  size?: 'sm' | 'md' | 'lg';
}

const widths = { sm: 'sm:max-w-sm', md: 'sm:max-w-md', lg: 'sm:max-w-xl' };

/**
 * A dialog over the page: labelled by its title, Escape and the backdrop close it, focus moves into it
 * (to the first `[data-autofocus]` element, else the first control) and back to where it was when it
 * closes, and Tab stays inside. On phones it sits at the bottom of the screen like a sheet.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  dismissible = true,
  size = 'md',
}: ModalProps) {
  if (!open) return null;
  return createPortal(
    <ModalPanel
      onClose={onClose}
      title={title}
      description={description}
      footer={footer}
      dismissible={dismissible}
      size={size}
    >
      {children}
    </ModalPanel>,
    document.body,
  );
}

function ModalPanel({
  onClose,
  title,
  description,
  children,
  footer,
  dismissible,
  size,
}: Omit<ModalProps, 'open'> & { dismissible: boolean; size: 'sm' | 'md' | 'lg' }) {
  const id = useId();
  const panelRef = useDialogFocus<HTMLDivElement>({ onClose, dismissible, focusFirstControl: true });

  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-6">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-ink-900/50 backdrop-blur-[2px]"
        onClick={() => dismissible && onClose()}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        tabIndex={-1}
        className={`relative flex max-h-[92dvh] w-full flex-col rounded-t-3xl bg-white shadow-2xl outline-none sm:rounded-3xl ${widths[size]}`}
      >
        <div className="flex items-start justify-between gap-4 px-5 pt-5 sm:px-6 sm:pt-6">
          <div className="min-w-0">
            <h2 id={`${id}-title`} className="text-lg font-semibold text-ink-900">
              {title}
            </h2>
            {description && (
              <p id={`${id}-description`} className="mt-1 text-sm text-slate-600">
                {description}
              </p>
            )}
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            disabled={!dismissible}
            className="-mt-1 -mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-ink-900 disabled:opacity-40"
          >
            <CloseIcon />
          </button>
        </div>
        <div data-modal-body className="overflow-y-auto px-5 pt-4 pb-5 sm:px-6 sm:pb-6">
          {children}
        </div>
        {footer && (
          <div className="flex flex-col-reverse gap-2 border-t border-slate-100 px-5 py-4 sm:flex-row sm:justify-end sm:px-6">
            {footer}
          </div>
        )}
      </div>
    </div>
  );
}
