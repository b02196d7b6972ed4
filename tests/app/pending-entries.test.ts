/**
 * The documents being added and what storage keeps of them across a reload (src/app/state/pending-entries.ts):
 * a file being read is kept as its file, a read one as its text (a PDF's file beside it), a failure not at
 * all, and a stored record comes back as the entry it was made from.
 */
import { describe, expect, it } from 'vitest';
import type { IngestedDocument } from '../../src/ingest';
import {
  entryOf,
  failedEntry,
  readEntry,
  readingEntry,
  readyEntry,
  recordOf,
  signature,
  type Entry,
} from '../../src/app/state/pending-entries';
import type { PdfLayout } from '../../src/protocol/pdf-layout';

const LAYOUT: PdfLayout = { version: 1, pages: [] };

/** A document as the reader returns it. */
function readDocument(name: string, extra: Partial<IngestedDocument> = {}): IngestedDocument {
  return {
    name,
    type: 'txt',
    size: 11,
    text: 'Once upon a time.',
    warnings: ['read as Windows-1252'],
    ...extra,
  };
}

describe('pending entries', () => {
  it('lists a chosen file as being read, typed by its extension, and stores the file itself', () => {
    const file = new File(['Once upon a time.'], 'Cinderella.PDF');
    const entry = readingEntry(file);
    expect(entry.pending).toMatchObject({ name: 'Cinderella.PDF', type: 'pdf', status: 'reading', chars: 0 });
    expect(readingEntry(new File(['x'], 'notes.rtf')).pending.type).toBe('txt');
    expect(recordOf(entry)).toMatchObject({ key: entry.pending.key, file, name: 'Cinderella.PDF' });
    expect(recordOf(entry)?.text).toBeUndefined();
    expect(signature(entry)).toBe('file');
  });

  it('keeps nothing of an empty file or of a failure', () => {
    expect(signature(readingEntry(new File([], 'empty.txt')))).toBe('none');
    const failed = failedEntry('Pasted text', new Error('The text is empty.'));
    expect(failed.pending).toMatchObject({ status: 'error', error: 'The text is empty.' });
    expect(recordOf(failed)).toBeUndefined();
  });

  it('stores a read text without its file, and a read PDF with its file beside the text', () => {
    const file = new File(['%PDF'], 'a.txt');
    const text: Entry = { ...readingEntry(file) };
    Object.assign(text, readEntry(text.pending, readDocument('a.txt'), file));
    expect(text.pending).toMatchObject({ status: 'ready', chars: 17, warnings: ['read as Windows-1252'] });
    expect(text.file).toBeUndefined();
    expect(recordOf(text)).toMatchObject({ text: 'Once upon a time.' });
    expect(recordOf(text)?.file).toBeUndefined();
    expect(signature(text)).toBe('text');

    const pdf: Entry = { ...readingEntry(file) };
    Object.assign(pdf, readEntry(pdf.pending, readDocument('a.pdf', { type: 'pdf', layout: LAYOUT }), file));
    expect(recordOf(pdf)).toMatchObject({ text: 'Once upon a time.', layout: LAYOUT, file });
  });

  it('brings a stored record back as the entry it was made from', () => {
    const ready = readyEntry(readDocument('cinderella.txt', { pageStarts: [5] }));
    const back = entryOf(recordOf(ready)!);
    expect(back.pending).toEqual(ready.pending);
    expect(back.document).toEqual(ready.document);
    expect(back.addedAt).toBe(ready.addedAt);

    // A file still being read comes back as a File with its name, to be read again.
    const reading = readingEntry(new File(['abc'], 'b.md'));
    const record = { ...recordOf(reading)!, file: new Blob(['abc']) };
    const again = entryOf(record);
    expect(again.pending.status).toBe('reading');
    expect(again.file).toBeInstanceOf(File);
    expect(again.file?.name).toBe('b.md');
  });
});
