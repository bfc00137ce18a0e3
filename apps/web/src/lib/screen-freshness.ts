// Some of the customer's records (KYC, settings, limits, payout addresses) are read afresh whenever a screen opens, so a change
// made on another device a moment ago counts. Several parts of one screen read the same record, and
// they mount at different times (the trade widget after its code loads): with a staleTime of 0 each
// late part read it again. "Fresh until the next screen opens" keeps the first promise and drops the
// repeats.

/** How long a record read on the open screen stays fresh there; also every query's default (app.tsx). */
export const SCREEN_FRESH_MS = 15_000;

let screenOpenedAt = 0;

/** Called when the router shows another screen: what was read before it is stale for the new one. */
export function markScreenOpened(now: number = Date.now()): void {
  screenOpenedAt = now;
}

/**
 * A query's staleTime: fresh for SCREEN_FRESH_MS if it was read since the current screen opened, stale
 * (read again on mount) if it was read on an earlier screen.
 */
export function freshOnThisScreen(query: { state: { dataUpdatedAt: number } }): number {
  return query.state.dataUpdatedAt >= screenOpenedAt ? SCREEN_FRESH_MS : 0;
}

/** Marks a screen opened whenever the router's location changes (not on its first render). */
export function followScreens(router: {
  state: { location: { key: string } };
  subscribe: (listener: (state: { location: { key: string } }) => void) => () => void;
}): () => void {
  let shownKey = router.state.location.key;
  return router.subscribe((state) => {
    if (state.location.key === shownKey) return;
    shownKey = state.location.key;
    markScreenOpened();
  });
}
