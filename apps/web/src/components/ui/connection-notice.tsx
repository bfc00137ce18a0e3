import { useSyncExternalStore } from 'react';

function onConnectionChange(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isOffline = () => navigator.onLine === false;
const onlineOnServer = () => false;

/**
 * A notice across the top of every page while the browser has no network: what the customer typed
 * stays on the screen, and nothing they ask for can reach the server until the connection is back.
 * Part of the page itself, since a toast's code may not have been downloaded yet.
 */
export function ConnectionNotice() {
  const offline = useSyncExternalStore(onConnectionChange, isOffline, onlineOnServer);
  if (!offline) return null;
  return (
    <div
      role="alert"
      className="sticky top-0 z-[60] bg-red-700 px-4 py-2 text-center text-sm font-semibold text-white"
    >
      You are offline. What you entered is kept: try again once you are back online.
    </div>
  );
}
