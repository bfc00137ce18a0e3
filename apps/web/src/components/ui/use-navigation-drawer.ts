import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The menu drawer of a layout on small screens (the public site, the dashboard, the back office).
 * It remembers the location it was opened on, so any navigation closes it without an effect. While it
 * is open its close button has the focus, Escape closes it and gives the focus back to the menu
 * button, and the page behind it does not scroll. Put `toggleRef` on the menu button and `closeRef` on
 * the drawer's close button.
 */
export function useNavigationDrawer() {
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

  return {
    isOpen,
    toggleRef,
    closeRef,
    open: () => setOpenedOn(location.key),
    /** `restoreFocus`: give the focus back to the menu button (the drawer's own close button does). */
    close: ({ restoreFocus = false } = {}) => {
      setOpenedOn(null);
      if (restoreFocus) toggleRef.current?.focus();
    },
  };
}
