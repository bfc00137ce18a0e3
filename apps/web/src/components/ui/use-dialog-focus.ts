import { useEffect, useRef, useState } from 'react';

/** Open panels, innermost last: only the innermost one answers Escape and Tab (a dialog over a drawer). */
const openPanels: object[] = [];

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The focus handling of a modal panel (Modal, Drawer): on mount focus moves in, Tab stays inside,
 * Escape closes (when `dismissible`), the page behind stops scrolling; on unmount focus goes back to
 * the control that had it. Returns the ref for the panel element.
 *
 * `focusFirstControl`: move focus to the first `[data-autofocus]` element, else the first control of
 * `[data-modal-body]`, unless something inside already has it (autoFocus); otherwise the panel itself.
 */
export function useDialogFocus<T extends HTMLElement>({
  onClose,
  dismissible = true,
  focusFirstControl = false,
}: {
  onClose: () => void;
  dismissible?: boolean;
  focusFirstControl?: boolean;
}) {
  const panelRef = useRef<T>(null);
  // Read while rendering, before a child with autoFocus takes the focus: the control that opened us.
  const [previouslyFocused] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  // The latest handlers, read by the listeners without re-running the effect that moves focus.
  const closeRef = useRef({ onClose, dismissible });
  useEffect(() => {
    closeRef.current = { onClose, dismissible };
  });

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    if (!focusFirstControl) {
      panel.focus();
    } else if (!panel.contains(document.activeElement)) {
      // A field that focused itself on mount (autoFocus) keeps the focus.
      const first =
        panel.querySelector<HTMLElement>('[data-autofocus]') ??
        panel.querySelector('[data-modal-body]')?.querySelector<HTMLElement>(FOCUSABLE);
      (first ?? panel).focus();
    }

    const layer = {};
    openPanels.push(layer);
    const onKeyDown = (event: KeyboardEvent) => {
      if (openPanels[openPanels.length - 1] !== layer) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        if (closeRef.current.dismissible) closeRef.current.onClose();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
      const firstElement = focusable[0];
      const lastElement = focusable[focusable.length - 1];
      if (!firstElement || !lastElement) {
        event.preventDefault();
        return;
      }
      if (event.shiftKey && (document.activeElement === firstElement || document.activeElement === panel)) {
        event.preventDefault();
        lastElement.focus();
      } else if (!event.shiftKey && document.activeElement === lastElement) {
        event.preventDefault();
        firstElement.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      openPanels.splice(openPanels.indexOf(layer), 1);
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = previousOverflow;
      // Back to the control that opened the dialog, if it is still on the page.
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [previouslyFocused, focusFirstControl]);

  return panelRef;
}
