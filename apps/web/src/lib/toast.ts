/**
 * The app's toasts. react-hot-toast shows them, but its module injects its styles and keyframes into the
 * page as it first runs (about 40 ms of main thread in Chromium, several times that on a phone), so it
 * loads with the first toast a customer is shown, not with every page. A toast raised while it loads
 * waits here and is shown, in order, once it has loaded; the toast area (components/ui/toast-area.tsx)
 * mounts at the same moment.
 */
import type { ToastOptions } from 'react-hot-toast';

type ToastLibrary = typeof import('react-hot-toast');
type ToastKind = 'blank' | 'success' | 'error';
/** `id` makes a toast take the place of the one shown with the same id, rather than stack. */
type ToastSettings = Pick<ToastOptions, 'id'>;

let library: ToastLibrary | null = null;
let loading: Promise<ToastLibrary> | null = null;
const waiting: { kind: ToastKind; message: string; settings?: ToastSettings }[] = [];
const listeners = new Set<() => void>();

function loadLibrary(): Promise<ToastLibrary> {
  loading ??= import('react-hot-toast').then(
    (loaded) => {
      library = loaded;
      for (const listener of listeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = null; // A failed download is tried again with the next toast.
      throw error;
    },
  );
  return loading;
}

function raise(loaded: ToastLibrary, kind: ToastKind, message: string, settings?: ToastSettings): void {
  if (kind === 'blank') loaded.toast(message, settings);
  else loaded.toast[kind](message, settings);
}

function show(kind: ToastKind, message: string, settings?: ToastSettings): void {
  if (library) {
    raise(library, kind, message, settings);
    return;
  }
  waiting.push({ kind, message, settings });
  loadLibrary().then(
    (loaded) => {
      for (const next of waiting.splice(0)) raise(loaded, next.kind, next.message, next.settings);
    },
    () => {
      // The messages stay waiting; the next toast tries the download again and shows them all.
    },
  );
}

/** Shows a plain toast; `toast.success` and `toast.error` show one with their icon. */
export const toast = Object.assign(
  (message: string, settings?: ToastSettings) => show('blank', message, settings),
  {
    success: (message: string, settings?: ToastSettings) => show('success', message, settings),
    error: (message: string, settings?: ToastSettings) => show('error', message, settings),
  },
);

/** react-hot-toast once it has loaded (for the toast area), or null before the first toast. */
export function loadedToastLibrary(): ToastLibrary | null {
  return library;
}

export function onToastLibraryLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
