import { Spinner } from '../../components/ui/spinner';

/**
 * What the first paint shows while the page's code arrives (the router's hydrate fallback): the page
 * modules load on demand, so a visitor's first screen waits a moment for its own.
 */
export function PageLoading() {
  return (
    <div
      role="status"
      aria-label="Loading"
      className="flex min-h-[60vh] items-center justify-center text-orange-500"
    >
      <Spinner className="size-6" />
    </div>
  );
}
