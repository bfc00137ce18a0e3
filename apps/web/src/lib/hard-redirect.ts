/**
 * Leaves the single-page app with a full page load, which also drops every cached answer and every
 * piece of in-memory state. Its own module so tests can replace it (jsdom cannot navigate).
 */
export function hardRedirect(url: string): void {
  window.location.assign(url);
}
