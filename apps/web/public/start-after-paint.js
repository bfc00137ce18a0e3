// The scripts of a prerendered page (scripts/prerender.mjs) start loading once the browser has painted
// it, never before: the page's HTML and stylesheet have the connection and the main thread to
// themselves until the first paint, and the app then hydrates what is already on screen (src/main.tsx).
// This file is a plain deferred script, not a module of the app, so it runs without waiting for any of
// them. Its data-scripts attribute lists the app's entry first, then every chunk the entry and the
// page's route import: they are all announced at once, so they download side by side.
/* global document, requestAnimationFrame */
(function () {
  var self = document.currentScript;
  var urls = ((self && self.getAttribute('data-scripts')) || '').split(' ').filter(Boolean);
  if (urls.length === 0) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    for (var index = 1; index < urls.length; index += 1) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.setAttribute('fetchpriority', 'low');
      link.crossOrigin = '';
      link.href = urls[index];
      document.head.appendChild(link);
    }
    var entry = document.createElement('script');
    entry.type = 'module';
    entry.setAttribute('fetchpriority', 'low');
    entry.crossOrigin = '';
    entry.src = urls[0];
    document.head.appendChild(entry);
  }
  // The next frame paints the page; the one after it begins once that paint is on screen. A hidden tab
  // paints nothing: it starts at once, or as soon as it is hidden.
  if (document.visibilityState === 'hidden') {
    start();
    return;
  }
  document.addEventListener('visibilitychange', start, { once: true });
  requestAnimationFrame(function () {
    requestAnimationFrame(start);
  });
})();
