/**
 * Aerie's service worker: the offline copy (Workbox precaching: the app shell, both ONNX Runtime builds,
 * llama.cpp's WebAssembly, PDF.js's worker and CMaps, the offline GloVe model, the sample), the app's page for
 * the app's own navigations only, the security headers a static host did not send, and updates that wait for
 * the person (a new version installs beside the running one and takes over only when the page asks:
 * SKIP_WAITING); an install waits while a build runs. The decisions live in src/offline; this file wires them to
 * the service worker's events.
 */
import { PrecacheController, PrecacheRoute } from 'workbox-precaching';
import { Route, Router } from 'workbox-routing';
import { setsPolicy, withMissingHeaders, type HeaderSet } from '../src/offline/headers';
import { isAppNavigation } from '../src/offline/navigation';
import { OFFLINE_CACHE, SKIP_WAITING } from '../src/offline/names';
import { fromEarlierVersion, retireEarlierVersions } from '../src/offline/offline-copy';
import { buildGate, yieldToBuilds } from '../src/offline/yield-to-builds';

declare const self: ServiceWorkerGlobalScope;
/** The headers pages and workers must carry (build/pwa.ts: the app's security headers and its policy). */
declare const __AERIE_SW_HEADERS__: HeaderSet;

const scope = new URL(self.registration.scope);
// A first visit's install (no version active yet: the whole ~67 MB copy) fetches one file at a time and waits
// while a build runs in any tab (yield-to-builds.ts). An update fetches only the files that changed and must
// be ready while the build runs, so the page can say "reloads as soon as the build has finished".
const firstVisit = self.registration.active === null;
const precache = new PrecacheController({
  cacheName: OFFLINE_CACHE,
  plugins: [yieldToBuilds(buildGate(firstVisit ? self.navigator.locks : undefined))],
});
precache.addToCacheList(self.__WB_MANIFEST);

const router = new Router();
router.registerRoute(new PrecacheRoute(precache));
router.registerRoute(
  new Route(
    ({ request, url }) => request.mode === 'navigate' && isAppNavigation(url, scope),
    precache.createHandlerBoundToURL(new URL('index.html', scope).href),
  ),
);

self.addEventListener('install', (event) => void precache.install(event));

self.addEventListener('activate', (event) => {
  const expected = new Set(precache.getURLsToCacheKeys().values());
  event.waitUntil(retireEarlierVersions(self.caches, expected, scope.href).then(() => self.clients.claim()));
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  if (new URL(request.url).origin !== scope.origin) return;
  const routed = router.handleRequest({ event, request });
  const response = routed ?? fromEarlierVersion(self.caches, request).then((kept) => kept ?? fetch(request));
  event.respondWith(
    setsPolicy(request) ? response.then((r) => withMissingHeaders(r, __AERIE_SW_HEADERS__)) : response,
  );
});
