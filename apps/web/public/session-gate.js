// Runs before the prerendered frame of a signed-in page (the dashboard's navigation and loading state,
// scripts/prerender.mjs) is painted. That frame is for a browser holding a session: a visitor without
// one, or whose session has expired, is sent home at once, as the app itself would send them
// (src/app/guards.tsx; the token is read as src/lib/session-storage.ts reads it), and the frame is
// hidden meanwhile so it never shows.
/* global document, location */
(function () {
  var signedIn = false;
  try {
    var token = localStorage.getItem('authToken');
    var payload = token ? token.split('.')[1] : null;
    if (payload) {
      var claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
      signedIn =
        typeof claims._id === 'string' && typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
    }
  } catch {
    signedIn = false;
  }
  if (!signedIn) {
    document.documentElement.setAttribute('hidden', '');
    location.replace('/');
  }
})();
