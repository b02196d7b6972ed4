/**
 * PDF.js's packed CMaps served from the app's own origin: Vite emits each file of
 * `node_modules/pdfjs-dist/cmaps/` as an asset (small ones inlined as data: URLs) and this table maps a CMap's
 * file name to its URL. Nothing is fetched until a PDF needs a CMap. Vite-only (`import.meta.glob`): Node tests
 * load CMaps from disk instead.
 */
import type { CMapLoader } from './pdfjs-runtime';

// Relative to this file (not the Vite root), so any app or test page built from these sources finds them.
const CMAP_URLS: Record<string, string> = import.meta.glob<string>(
  '../../node_modules/pdfjs-dist/cmaps/*.bcmap',
  {
    query: '?url&no-inline',
    import: 'default',
    eager: true,
    exhaustive: true,
  },
);

const CMAP_DIRECTORY = '../../node_modules/pdfjs-dist/cmaps/';

/** Loads a packed CMap bundled with the app (see `CMapLoader`). */
export const loadBundledCMap: CMapLoader = async (filename) => {
  const url = CMAP_URLS[CMAP_DIRECTORY + filename];
  if (!url) throw new Error(`PDF.js CMap ${filename} is not bundled.`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`PDF.js CMap ${filename}: HTTP ${response.status}.`);
  return new Uint8Array(await response.arrayBuffer());
};
