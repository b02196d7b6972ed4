/**
 * Aerie offline and installable: the web app manifest and the service worker (vite-plugin-pwa with Workbox,
 * `injectManifest`: our own worker, workers/sw.ts, with the list of files to keep offline written into it at
 * build time). What is kept offline: the app shell, both ONNX Runtime Web builds, llama.cpp's WebAssembly,
 * PDF.js's worker and CMaps, the offline GloVe model and the sample; not the random-weight test models (they
 * exist for the tests, and transformers.js keeps a copy of any model once used anyway).
 *
 * The service worker adds the app's security headers to pages and workers where the host sent none
 * (`swHeaders`), so a static host that cannot send headers still gets the policy and cross-origin isolation.
 * In `vite` dev no service worker is registered, and `/sw.js` is a worker that removes itself: a service worker
 * left on the dev server's origin by a production build served there earlier cannot keep serving old files.
 */
import type { Plugin } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { contentSecurityPolicy, cspOptionsFromEnv, CSP_REPORT_PATH, SECURITY_HEADERS } from './csp.ts';

/** Files of `dist/` the offline copy holds (the manifest and its icons are added by the plugin). */
export const PRECACHE_GLOBS = [
  'index.html',
  'favicon.svg',
  // Scripts, styles and workers (PDF.js's among them), and PDF.js's CMaps.
  'assets/**/*',
  // Both ONNX Runtime Web builds (build/ort-assets.ts) and llama.cpp's WebAssembly (build/wllama-assets.ts).
  'ort/*',
  'wllama/*',
  // The offline embedding model; the random-weight test models beside it are not listed.
  'models/aerie-glove-100d/**/*',
  'samples/*.txt',
] as const;

/** The largest file kept offline is ONNX Runtime's asyncify build (27 MB); room to grow, not unbounded. */
const MAX_PRECACHED_FILE_BYTES = 48 * 1024 * 1024;

/** Colours of the installed app's window and splash screen (the logo's blue, the light theme's page). */
export const THEME_COLOR = '#1f4e79';
const BACKGROUND_COLOR = '#f5f6f8';

/** The installed app: name, icons (scripts/icons/make-icons.ts draws them from public/favicon.svg), window. */
export const WEB_APP_MANIFEST = {
  id: './',
  name: 'Aerie — RAPTOR tree retrieval',
  short_name: 'Aerie',
  description: 'RAPTOR tree retrieval that runs entirely in your browser, offline too.',
  start_url: './',
  scope: './',
  display: 'standalone',
  background_color: BACKGROUND_COLOR,
  theme_color: THEME_COLOR,
  lang: 'en',
  icons: [
    { src: 'icons/aerie-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: 'icons/aerie-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: 'icons/aerie-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
} satisfies Partial<ManifestOptions>;

/**
 * The headers the service worker adds to pages and workers the host sent without them: the app's security
 * headers and its policy (with the report address when `AERIE_CSP_REPORT=1`, as the tests' servers have).
 */
export function swHeaders(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const reportUri = env.AERIE_CSP_REPORT === '1' ? CSP_REPORT_PATH : undefined;
  return {
    ...SECURITY_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy({ ...cspOptionsFromEnv(env), reportUri }),
  };
}

/** The dev server's `/sw.js`: takes over from any service worker left on this origin, removes itself, reloads. */
export const SELF_REMOVING_SW = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil((async () => {
  await self.registration.unregister();
  for (const client of await self.clients.matchAll({ type: 'window' })) client.navigate(client.url);
})()));
`;

function devServiceWorkerReset(): Plugin {
  return {
    name: 'aerie-dev-sw-reset',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/sw.js', (req, res, next) => {
        if ((req.url ?? '/').split('?')[0] !== '/') return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.setHeader('Cache-Control', 'no-store');
        res.end(SELF_REMOVING_SW);
      });
    },
  };
}

/** The plugins (see the module comment). */
export function offlineApp(): Plugin[] {
  return [
    ...VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      // The page registers the worker itself (src/client/service-worker.ts): no inline script, no registerSW.js.
      injectRegister: false,
      manifest: WEB_APP_MANIFEST,
      injectManifest: {
        globPatterns: [...PRECACHE_GLOBS],
        maximumFileSizeToCacheInBytes: MAX_PRECACHED_FILE_BYTES,
        // One ES file without imports, loadable as a classic worker script.
        rollupFormat: 'es',
      },
      devOptions: { enabled: false },
    }),
    devServiceWorkerReset(),
  ];
}
