import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The menu drawer of a layout on small screens (the public site, the dashboard, the back office).
 * It remembers the location it was opened on, so any navigation closes it without an effect. While it
 * is open its close button has the focus, Escape closes it and gives the focus back to the menu
 * button, and the page behind it does not scroll. Spread `toggleButtonProps` on the menu button and
 * `closeButtonProps` on the drawer's close button; give the drawer the id `drawerId`.
 *
 * `beforeOpen`: runs as the menu button opens the drawer (the public site measures its header then).
 */
export function useNavigationDrawer({ drawerId, beforeOpen }: { drawerId: string; beforeOpen?: () => void }) {
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const isOpen = openedOn === location.key;

  useEffect(() => {
    if (!isOpen) return;
    closeRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenedOn(null);
        toggleRef.current?.focus();
      }
    };
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = previousOverflow;
    };
  }, [isOpen]);

  const close = () => setOpenedOn(null);
  return {
    isOpen,
    close,
    toggleButtonProps: {
      ref: toggleRef,
      type: 'button' as const,
      'aria-expanded': isOpen,
      'aria-controls': drawerId,
      'aria-label': isOpen ? 'Close menu' : 'Open menu',
      onClick: () => {
        if (isOpen) return close();
        beforeOpen?.();
        setOpenedOn(location.key);
      },
    },
    /** The drawer's own close button gives the focus back to the menu button. */
    closeButtonProps: {
      ref: closeRef,
      type: 'button' as const,
      'aria-label': 'Close menu',
      onClick: () => {
        close();
        toggleRef.current?.focus();
      },
    },
  };
}
