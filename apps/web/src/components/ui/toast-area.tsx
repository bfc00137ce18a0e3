import { useSyncExternalStore } from 'react';
import { loadedToastLibrary, onToastLibraryLoaded } from '../../lib/toast';

const noLibrary = () => null;

// Tailwind's `sm`: below it a dialog is a sheet along the bottom of the screen, its buttons last.
const WIDE_SCREEN = '(min-width: 640px)';

// Test DOMs have no matchMedia: they count as wide.
const canMatch = () => typeof window.matchMedia === 'function';

function onWidthChange(listener: () => void): () => void {
  if (!canMatch()) return () => undefined;
  const query = window.matchMedia(WIDE_SCREEN);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

const isWide = () => !canMatch() || window.matchMedia(WIDE_SCREEN).matches;
const wideOnServer = () => true;

/**
 * Where toasts show (2 s each): bottom right, and on phones at the top, away from the buttons of a
 * dialog's bottom sheet. A toast never takes a click or a tap: one that lands over a button lets it
 * through. Mounted with the first toast's code (lib/toast.ts).
 */
export function ToastArea() {
  const library = useSyncExternalStore(onToastLibraryLoaded, loadedToastLibrary, noLibrary);
  const wide = useSyncExternalStore(onWidthChange, isWide, wideOnServer);
  if (!library) return null;
  return (
    <library.Toaster
      position={wide ? 'bottom-right' : 'top-center'}
      toastOptions={{ duration: 2000, style: { pointerEvents: 'none' } }}
    />
  );
}
