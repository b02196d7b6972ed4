/**
 * Which navigations the service worker answers with the app's page (offline too): the app's own pages only,
 * never a file. A model file, ONNX Runtime's WebAssembly or any other asset that is missing must stay the
 * host's 404 (transformers.js reads a 404 as "not there" and an HTML page with 200 as a broken model), so the
 * fallback applies to navigations (a person opening a URL), and of those only to paths that name no file.
 */

/** Folders under the app's base that hold files, never pages. */
export const FILE_FOLDERS = [
  'assets/',
  'ort/',
  'wllama/',
  'models/',
  'samples/',
  'icons/',
  '__aerie/',
] as const;

/**
 * True when a navigation to `url` should get the app's page: same origin, under `base` (the app's base URL),
 * outside FILE_FOLDERS, and its last path segment names no file (`index.html` excepted).
 */
export function isAppNavigation(url: URL, base: URL): boolean {
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return false;
  const rest = url.pathname.slice(base.pathname.length);
  if (FILE_FOLDERS.some((folder) => rest.startsWith(folder))) return false;
  const last = rest.slice(rest.lastIndexOf('/') + 1);
  return last === 'index.html' || !last.includes('.');
}
