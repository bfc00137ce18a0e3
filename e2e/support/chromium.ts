/**
 * Debian's Chromium as the browser tests and `npm run bench:web` drive it: headless, and quiet on the
 * network (no background requests, updates, sync or QUIC), so that nothing leaves the machine.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
