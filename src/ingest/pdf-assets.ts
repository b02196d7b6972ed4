/**
 * PDF.js's packed CMaps and standard fonts served from the app's own origin: Vite emits each file of
 * `node_modules/pdfjs-dist/cmaps/` and `standard_fonts/` as an asset and these tables map a file name to its
 * URL. Nothing is fetched until a PDF needs a file. Vite-only (`import.meta.glob`): Node tests load them from
 * disk instead.
 */
import type { BinaryLoader } from './pdf-data';

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

const FONT_URLS: Record<string, string> = import.meta.glob<string>(
  '../../node_modules/pdfjs-dist/standard_fonts/*.{pfb,ttf}',
  { query: '?url&no-inline', import: 'default', eager: true, exhaustive: true },
);

const FONT_DIRECTORY = '../../node_modules/pdfjs-dist/standard_fonts/';

async function loadBundled(urls: Record<string, string>, path: string, what: string): Promise<Uint8Array> {
  const url = urls[path];
  if (!url) throw new Error(`PDF.js ${what} is not bundled.`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`PDF.js ${what}: HTTP ${response.status}.`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Loads a packed CMap bundled with the app. */
export const loadBundledCMap: BinaryLoader = (filename) =>
  loadBundled(CMAP_URLS, CMAP_DIRECTORY + filename, `CMap ${filename}`);

/** Loads a standard font's file bundled with the app (for drawing pages). */
export const loadBundledStandardFont: BinaryLoader = (filename) =>
  loadBundled(FONT_URLS, FONT_DIRECTORY + filename, `font ${filename}`);
