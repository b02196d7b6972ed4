/**
 * How Aerie's browser tests and benchmarks start Chromium: Debian's `chromium` (never a downloaded browser),
 * headless, with every background service that would reach the network turned off.
 */

/** The Chromium binary; `AERIE_CHROMIUM` overrides the Debian default. */
export const CHROMIUM_PATH = process.env.AERIE_CHROMIUM ?? '/usr/bin/chromium';

/** Launch flags. Host resolution is limited to loopback so any stray request fails fast and visibly. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1',
];
