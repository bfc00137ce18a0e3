/**
 * The moment the first page answers input (hydrated, or rendered with its route's code). The root
 * layout records it; code that the first page does not need before then (lib/deferred-component.tsx)
 * waits for it, so it does not compete with the page's own start-up. `npm run bench:web` counts the
 * scripts requested before the performance mark, and the browser tests wait for it
 * (e2e/support/interactive.ts).
 */
export const INTERACTIVE_MARK = 'offzero:interactive';

let reached = false;
let resolveInteractive: () => void = () => {};
const interactive = new Promise<void>((resolve) => {
  resolveInteractive = resolve;
});

/** Called once the first page is on screen and answers input. */
export function markInteractive(): void {
  if (reached) return;
  reached = true;
  performance.mark(INTERACTIVE_MARK);
  resolveInteractive();
}

/** Resolves once the first page is interactive (at once on later pages). */
export function whenInteractive(): Promise<void> {
  return interactive;
}
