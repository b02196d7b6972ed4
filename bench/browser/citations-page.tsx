/**
 * The citation benchmark page: bench/citations.bench.ts drives it with Playwright through
 * `window.aerieCitationBench`. `prepare()` fetches the generated book PDF and its layout (made in Node by the
 * ingest, outside any timing) and mounts the app's DocumentPanel in a column as wide as the app's centre
 * column at 1440×900, with a button per citation. `open(i)` clicks citation i's button and resolves when
 * its page is drawn, its words highlighted and the focus on them (the panel's `data-citation-drawn`), plus the
 * animation frame that paints it: the time a reader waits. `storage()` writes the kept file and its layout,
 * and a tree of the book's size, to this browser's IndexedDB and reports the usage each adds.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DocumentPanel } from '../../src/app/document/DocumentPanel';
import type { ActiveCitation } from '../../src/app/document/panel-document';
import { decodeBase64 } from '../../src/core/base64';
import type { PdfLayout } from '../../src/protocol/pdf-layout';
import type { OriginalRecord } from '../../src/storage';
import '../../src/app/theme.css';
import '../../src/app/app.css';

/** What the Node side made: the text, pages and layout of the book (runs as base64 of int32). */
export interface BookData {
  text: string;
  pageStarts: number[];
  layout: { version: 1; pages: { start: number; end: number; items: number; check: number; runs: string }[] };
  /** The leaves to cite: [start, end) offsets. */
  leaves: [number, number][];
  /** Leaves of the whole book (100-token chunks) and the summaries a tree of it has (the paper's ~6 per parent). */
  leafCount: number;
  summaryCount: number;
}

declare global {
  interface Window {
    aerieCitationBench: {
      prepare(): Promise<{ pages: number; bytes: number; leaves: number }>;
      open(i: number): Promise<number>;
      storage(): Promise<{
        originalBytes: number;
        treeBytes: number;
        fileBytes: number;
        layoutBytes: number;
      }>;
    };
  }
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
let book: BookData | undefined;
let pdf: Blob | undefined;
let layout: PdfLayout | undefined;
let key = 0;

function Harness({ data }: { data: BookData }) {
  const [citation, setCitation] = useState<ActiveCitation>();
  const documents = [
    {
      id: 'd1',
      name: 'pride-and-prejudice.pdf',
      text: data.text,
      pageStarts: data.pageStarts,
      pdf: { documentId: 'book', original: { kept: true as const, bytes: pdf!.size, layoutBytes: 0 } },
    },
  ];
  const loadOriginal = async (): Promise<OriginalRecord> => ({
    documentId: 'book',
    name: 'pride-and-prejudice.pdf',
    type: 'application/pdf',
    size: pdf!.size,
    file: pdf!,
    layout: layout!,
    addedAt: 0,
  });
  return (
    <div style={{ display: 'flex', gap: 8, height: '100vh' }}>
      <div style={{ width: 660, display: 'flex', flexDirection: 'column' }}>
        <DocumentPanel
          documents={documents}
          leaves={[]}
          highlights={{}}
          citation={citation}
          loadOriginal={loadOriginal}
          visible
          onBack={() => setCitation(undefined)}
        />
      </div>
      <div>
        {data.leaves.map(([start, end], i) => (
          <button
            key={i}
            type="button"
            data-cite={i}
            onClick={() => {
              key += 1;
              setCitation({
                key,
                target: {
                  n: i + 1,
                  nodeId: i,
                  layer: 0,
                  text: '',
                  kind: 'leaf',
                  unlocated: 0,
                  ranges: [{ doc: 'd1', start, end }],
                },
              });
            }}
          >
            [{i + 1}]
          </button>
        ))}
      </div>
    </div>
  );
}

function int32(base64: string): Int32Array {
  const bytes = decodeBase64(base64);
  return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

window.aerieCitationBench = {
  async prepare() {
    const [data, file] = await Promise.all([
      fetch('./book.json').then((r) => r.json() as Promise<BookData>),
      fetch('./book.pdf').then((r) => r.blob()),
    ]);
    book = data;
    pdf = file;
    layout = { version: 1, pages: data.layout.pages.map((p) => ({ ...p, runs: int32(p.runs) })) };
    createRoot(document.getElementById('root')!).render(<Harness data={data} />);
    await nextFrame();
    return { pages: layout.pages.length, bytes: file.size, leaves: data.leaves.length };
  },

  async open(i) {
    const panel = document.querySelector('.document-panel')!;
    const button = document.querySelector<HTMLButtonElement>(`[data-cite="${i}"]`)!;
    const target = String(key + 1);
    const drawn = new Promise<void>((resolve) => {
      const observer = new MutationObserver(() => {
        if (panel.getAttribute('data-citation-drawn') === target) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(panel, { attributes: true, attributeFilter: ['data-citation-drawn'] });
    });
    const started = performance.now();
    button.click();
    await drawn;
    await nextFrame(); // the frame that paints it
    const elapsed = performance.now() - started;
    if (!document.activeElement?.matches('mark.pdf-hit'))
      throw new Error(`citation ${i}: the focus is not on the highlight`);
    return elapsed;
  },

  async storage() {
    const { openAerieDb, createTree, completeTree, keepOriginals } = await import('../../src/storage');
    const { syntheticTree } = await import('../../tests/support/synthetic-tree');
    const usage = async () => (await navigator.storage.estimate()).usage ?? 0;
    const db = await openAerieDb({ name: 'aerie-citation-bench' });
    const text = book!.text;
    const request = {
      buildId: 'book',
      title: 'Pride and Prejudice',
      documents: [{ id: 'd1', name: 'pride-and-prejudice.pdf', text, pageStarts: book!.pageStarts }],
      params: {},
      embedding: { kind: 'browser' as const, model: 'Xenova/multi-qa-MiniLM-L6-cos-v1' },
      summarizer: { kind: 'extractive' as const },
    };
    const before = await usage();
    await createTree(db, request, { files: [{ type: 'application/pdf', size: pdf!.size }] });
    // A tree of the book's shape with the app's default model (384-d): its leaves and the summaries above them.
    const tree = syntheticTree({ nodes: book!.leafCount + book!.summaryCount, dim: 384, wordsPerLeaf: 75 });
    await completeTree(db, 'book', tree);
    const afterTree = await usage();
    await keepOriginals(db, 'book', [{ file: pdf!, layout: layout!, name: 'pride-and-prejudice.pdf' }]);
    const afterOriginal = await usage();
    const layoutBytes = layout!.pages.reduce((n, p) => n + p.runs.byteLength, 0);
    db.close();
    return {
      treeBytes: afterTree - before,
      originalBytes: afterOriginal - afterTree,
      fileBytes: pdf!.size,
      layoutBytes,
    };
  },
};
