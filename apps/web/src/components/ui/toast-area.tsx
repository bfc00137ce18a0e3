import { useSyncExternalStore } from 'react';
import { loadedToastLibrary, onToastLibraryLoaded } from '../../lib/toast';

const noLibrary = () => null;

/** Where toasts show (bottom right, 2 s each): mounted with the first toast's code (lib/toast.ts). */
export function ToastArea() {
  const library = useSyncExternalStore(onToastLibraryLoaded, loadedToastLibrary, noLibrary);
  if (!library) return null;
  return <library.Toaster position="bottom-right" toastOptions={{ duration: 2000 }} />;
}
