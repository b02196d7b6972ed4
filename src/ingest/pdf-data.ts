/**
 * Where PDF.js gets the binary data it asks for, with nothing fetched from another origin: packed CMaps (CJK
 * text in predefined encodings) for ingestion and for the page view, and the standard fonts' files (a PDF that
 * names Helvetica or Times without embedding them) for drawing pages. PDF.js calls the factory only when a
 * document needs a file.
 */
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api';

/** Loads one file PDF.js asks for by name (e.g. "UniJIS-UCS2-H.bcmap", "LiberationSans-Regular.ttf"). */
export type BinaryLoader = (filename: string) => Promise<Uint8Array>;

/** The loaders a document may use; a kind without one is refused (PDF.js then does without). */
export interface BinaryLoaders {
  cMap?: BinaryLoader;
  standardFont?: BinaryLoader;
}

/** The `getDocument` parameters that make PDF.js ask `loaders` for its data (and for nothing else). */
export function binaryDataParams(loaders: BinaryLoaders): Partial<DocumentInitParameters> {
  class BinaryDataFactory {
    // PDF.js constructs the factory with its URL parameters, which are not used here.
    constructor(_urls: unknown) {}
    fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
      const load =
        kind === 'cMapUrl' ? loaders.cMap : kind === 'standardFontDataUrl' ? loaders.standardFont : undefined;
      if (!load) return Promise.reject(new Error(`No ${kind} data is bundled (${filename}).`));
      return load(filename);
    }
  }
  return {
    BinaryDataFactory,
    cMapPacked: true,
    // Standard fonts come from the factory, so PDF.js draws them as they look, not as a system font.
    ...(loaders.standardFont ? { useSystemFonts: false, useWorkerFetch: false } : {}),
  };
}
