import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ingestFile,
  ingestText,
  IngestError,
  LARGE_TEXT_CHARS,
  MAX_FILE_BYTES,
  type IngestFile,
  type IngestProgress,
} from '../../src/ingest';
import { chunkText } from '../../src/core/text';
import { seededRandom } from '../../src/core/random';
import { READ_SLICE_BYTES } from '../../src/protocol/ingest-limits';
import { rejection } from '../support/rejection';

const fixture = (name: string, as = name): File =>
  new File([readFileSync(new URL(`../fixtures/ingest/${name}`, import.meta.url))], as);

const bytesFile = (bytes: number[] | Uint8Array, name: string): File =>
  new File([new Uint8Array(bytes)], name);

/** Runs `promise` and returns the IngestError it rejects with (fails the test when it resolves). */
const refusal = (promise: Promise<unknown>) => rejection(promise, IngestError);

const OWL_TEXT = 'Grüße aus Köln.\nZweite Zeile: 日本語 and an owl 🦉.\n';

describe('plain text files', () => {
  it('reads UTF-8, removing a byte-order mark and turning CRLF and CR line breaks into LF', async () => {
    const bytes = [0xef, 0xbb, 0xbf, ...new TextEncoder().encode('One\r\nTwo\rThree\ncafé\r\n')];
    const doc = await ingestFile(bytesFile(bytes, 'notes.txt'));
    expect(doc).toEqual({
      name: 'notes.txt',
      type: 'txt',
      size: bytes.length,
      text: 'One\nTwo\nThree\ncafé\n',
      warnings: [],
    });
  });

  it('reads .md files as Markdown and files of unknown extension (or none) as text', async () => {
    expect((await ingestFile(new File(['# Title\n\nBody.'], 'README.MD'))).type).toBe('md');
    expect((await ingestFile(new File(['a,b\n1,2\n'], 'table.csv'))).type).toBe('txt');
    const doc = await ingestFile(new File(['plain words'], 'LICENSE'));
    expect([doc.type, doc.text]).toEqual(['txt', 'plain words']);
  });

  it('decodes UTF-16LE and UTF-16BE files by their byte-order mark', async () => {
    for (const name of ['utf16le.txt', 'utf16be.txt']) {
      const doc = await ingestFile(fixture(name));
      expect(doc.text).toBe(OWL_TEXT);
      expect(doc.warnings).toEqual([]);
    }
  });

  it('replaces an unpaired surrogate in UTF-16, with a warning', async () => {
    const doc = await ingestFile(bytesFile([0xff, 0xfe, 0x41, 0x00, 0x00, 0xd8, 0x42, 0x00], 'odd.txt'));
    expect(doc.text).toBe('A\ufffdB');
    expect(doc.warnings).toEqual(['“odd.txt” has 1 invalid UTF-16 sequence; they were replaced by “�”.']);
  });

  it('recognises UTF-16LE without a byte-order mark by its NUL high bytes', async () => {
    const doc = await ingestFile(
      new File([Buffer.from('Plain ASCII in UTF-16, no BOM.\r\n', 'utf16le')], 'x.txt'),
    );
    expect(doc.text).toBe('Plain ASCII in UTF-16, no BOM.\n');
  });

  it('reads legacy Western text as Windows-1252 (curly quotes, dashes and € included), with a warning', async () => {
    const doc = await ingestFile(fixture('windows-1252.txt'));
    expect(doc.text).toBe('Café crème brûlée costs €5 — “quoted” text.\nSecond line: naïve façade.\n');
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatch(/not UTF-8.*Windows-1252/);
  });

  it('refuses a legacy non-Western encoding instead of showing garbage', async () => {
    const error = await refusal(ingestFile(fixture('cyrillic-1251.txt')));
    expect(error.code).toBe('UNKNOWN_ENCODING');
    expect(error.details.nonAsciiShare).toBeGreaterThan(0.3);
    expect(error.message).toMatch(/Save it as UTF-8/);
  });

  it('keeps a damaged UTF-8 file as UTF-8, replacing only the invalid bytes', async () => {
    const good = new TextEncoder().encode('naïve café crème '.repeat(20));
    const doc = await ingestFile(bytesFile([...good, 0xff, ...good], 'damaged.txt'));
    expect(doc.text).toBe(`${'naïve café crème '.repeat(20)}\ufffd${'naïve café crème '.repeat(20)}`);
    expect(doc.warnings).toEqual(['“damaged.txt” has 1 invalid UTF-8 sequence; they were replaced by “�”.']);
  });

  it('removes NUL characters that appear after the sampled start, with a warning', async () => {
    const doc = await ingestFile(new File([`${'a'.repeat(9000)}\0\0b`], 'late-nul.txt'));
    expect(doc.text).toBe(`${'a'.repeat(9000)}b`);
    expect(doc.warnings).toEqual(['2 NUL characters were removed from “late-nul.txt”.']);
  });

  it('estimates the leaf chunks of a long text within 3% of what the build makes, prose or unbroken data', async () => {
    const random = seededRandom(24);
    let hex = '';
    while (hex.length <= LARGE_TEXT_CHARS) hex += `${Math.floor(random() * 0xffffffff).toString(16)} `;
    const novel = readFileSync(new URL('../fixtures/books/pride-and-prejudice.txt', import.meta.url), 'utf8');
    const prose = novel.repeat(Math.ceil((LARGE_TEXT_CHARS + 1) / novel.length));
    for (const text of [hex, prose]) {
      const doc = await ingestText(text, 'long.txt');
      const estimate = Number(/about ([\d,]+) leaf chunks/.exec(doc.warnings[0])![1].replaceAll(',', ''));
      const actual = chunkText(text).length;
      expect(Math.abs(estimate - actual) / actual).toBeLessThan(0.03);
    }
  });

  it('warns that a long text will take long to build', async () => {
    const doc = await ingestFile(new File(['word '.repeat(LARGE_TEXT_CHARS / 5 + 1)], 'long.txt'));
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatch(/long.*leaf chunks.*take a long time/);
  });
});

describe('bad files', () => {
  it('refuses an empty file (EMPTY) and a blank one (NO_TEXT)', async () => {
    expect((await refusal(ingestFile(new File([], 'empty.txt')))).code).toBe('EMPTY');
    const blank = await refusal(ingestFile(new File(['  \n\t \r\n  '], 'blank.md')));
    expect(blank.code).toBe('NO_TEXT');
    expect(blank.details.chars).toBe(8);
  });

  it('refuses a file of only zero-width, format and control characters as clearly as a blank one', async () => {
    // The hostile case of issue 24: 120,000 characters of U+200B–U+200F and U+2060.
    const marks = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060'];
    const invisible = Array.from({ length: 120_000 }, (_, i) => marks[i % marks.length]).join('');
    const error = await refusal(ingestFile(new File([invisible], 'invisible.txt')));
    expect(error.code).toBe('NO_TEXT');
    expect(error.message).toBe(
      '“invisible.txt” contains no visible text: its 120,000 characters are all invisible (zero-width, ' +
        'formatting or control characters, or blank space).',
    );
    // Soft hyphens, bidi embeddings, a BOM mid-text, Hangul fillers and the blank braille pattern render
    // as nothing too; one visible letter among them is a text.
    const blanks = '\u00ad\u202a\u202e\u2066\u2069\ufeff\u3164\u2800 \u115f\n';
    expect((await refusal(ingestFile(new File([blanks.repeat(50)], 'blanks.txt')))).code).toBe('NO_TEXT');
    expect((await ingestFile(new File([`${blanks}é${blanks}`], 'one.txt'))).text).toContain('é');
  });

  it('refuses a PNG renamed .txt as BINARY, naming what it is', async () => {
    const error = await refusal(ingestFile(fixture('binary.txt')));
    expect(error.code).toBe('BINARY');
    expect(error.message).toBe('“binary.txt” is not a text file: it looks like a PNG image.');
  });

  it('refuses text-named binary data without a known signature: NUL bytes, or many control characters', async () => {
    const withNuls = new TextEncoder().encode('Header text, then binary fields: \0\0\x07\0 and more.');
    const nul = await refusal(ingestFile(bytesFile(withNuls, 'data.txt')));
    expect([nul.code, nul.details.nul, nul.details.controls]).toEqual(['BINARY', 3, 1]);
    const controls = Array.from({ length: 400 }, (_, i) => (i % 10 === 0 ? 0x01 : 0x61));
    const control = await refusal(ingestFile(bytesFile(controls, 'data.log')));
    expect([control.code, control.details.controls]).toEqual(['BINARY', 40]);
  });

  it('refuses a ZIP archive renamed .txt as BINARY', async () => {
    const error = await refusal(ingestFile(fixture('paragraphs.docx', 'renamed.txt')));
    expect([error.code, error.details.looksLike]).toEqual(['BINARY', 'a ZIP archive']);
  });

  it('refuses known formats it does not read as UNSUPPORTED_TYPE', async () => {
    const cases: [File, RegExp][] = [
      [fixture('binary.txt', 'photo.png'), /image \(\.png\)/],
      [bytesFile([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0], 'report.doc'), /legacy Office/],
      [fixture('paragraphs.docx', 'sheet.xlsx'), /Excel/],
      [new File(['{\\rtf1\\ansi Hello}'], 'letter.txt'), /Rich Text/],
    ];
    for (const [file, label] of cases) {
      const error = await refusal(ingestFile(file));
      expect(error.code).toBe('UNSUPPORTED_TYPE');
      expect(error.message).toMatch(label);
      expect(error.message).toMatch(/Save or export it as PDF/);
    }
  });

  it('refuses a 200 MB file from its size alone, without reading it (fake file)', async () => {
    const reads: string[] = [];
    const fake = {
      name: 'huge.txt',
      size: 200_000_000,
      type: 'text/plain',
      slice: () => (reads.push('slice'), new Blob()),
      arrayBuffer: () => (reads.push('arrayBuffer'), Promise.resolve(new ArrayBuffer(0))),
      text: () => (reads.push('text'), Promise.resolve('')),
      stream: () => (reads.push('stream'), new Blob().stream()),
    } as unknown as IngestFile;
    const error = await refusal(ingestFile(fake));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.details).toEqual({ name: 'huge.txt', size: 200_000_000, maxBytes: MAX_FILE_BYTES });
    expect(error.message).toBe(
      '“huge.txt” is 200 MB, more than the 100 MB Aerie accepts. Split it into smaller files.',
    );
    expect(reads).toEqual([]);
  });

  it('refuses text beyond maxChars, before decoding when the size alone proves it', async () => {
    const long = await refusal(ingestFile(new File(['x'.repeat(100)], 'a.txt'), { maxChars: 50 }));
    expect([long.code, long.details.chars]).toEqual(['TOO_LARGE', 100]);
    const early = await refusal(ingestFile(new File(['x'.repeat(1000)], 'b.txt'), { maxChars: 10 }));
    expect([early.code, early.details.bytesRead]).toEqual(['TOO_LARGE', 0]);
    const bytes = await refusal(ingestFile(new File(['x'.repeat(1000)], 'c.txt'), { maxBytes: 999 }));
    expect([bytes.code, bytes.details.maxBytes]).toEqual(['TOO_LARGE', 999]);
  });

  it('reports a file the browser cannot read as READ_FAILED (fake file)', async () => {
    const fake = {
      name: 'moved.txt',
      size: 10,
      type: '',
      slice: () => ({ arrayBuffer: () => Promise.reject(new Error('NotReadableError')) }),
    } as unknown as IngestFile;
    const error = await refusal(ingestFile(fake));
    expect(error.code).toBe('READ_FAILED');
    expect(error.message).toMatch(/moved or changed since it was chosen/);
  });
});

describe('progress and cancellation', () => {
  const big = (): File => new File(['abc '.repeat((READ_SLICE_BYTES * 2) / 4 + 10)], 'big.txt');

  it('reports the bytes decoded, slice by slice, up to the whole file', async () => {
    const file = big();
    const events: IngestProgress[] = [];
    await ingestFile(file, { onProgress: (p) => events.push(p) });
    expect(events).toEqual([
      { stage: 'read', done: READ_SLICE_BYTES, total: file.size },
      { stage: 'read', done: READ_SLICE_BYTES * 2, total: file.size },
      { stage: 'read', done: file.size, total: file.size },
    ]);
  });

  it('stops with an AbortError when the signal fires, before or during decoding', async () => {
    await expect(ingestFile(big(), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    const controller = new AbortController();
    const read: number[] = [];
    const run = ingestFile(big(), {
      signal: controller.signal,
      onProgress: (p) => (read.push(p.done), controller.abort()),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(read).toEqual([READ_SLICE_BYTES]);
  });
});

describe('ingestText (pasted text)', () => {
  it('normalises line breaks and reports the UTF-8 size', async () => {
    expect(await ingestText('\ufeffé\r\n🦉')).toEqual({
      name: 'Pasted text',
      type: 'paste',
      size: 11,
      text: 'é\n🦉',
      warnings: [],
    });
    expect((await ingestText('Notes', 'My notes')).name).toBe('My notes');
  });

  it('keeps a text too short to cluster (the build makes a root over its leaves)', async () => {
    expect((await ingestText('Hi.')).text).toBe('Hi.');
  });

  it('refuses nothing, blank space, invisible text and too much', async () => {
    const codes = await Promise.all(
      [
        () => ingestText(''),
        () => ingestText(' \n\t'),
        () => ingestText('\u200b\u2060\u200e'.repeat(100)),
        () => ingestText('abcdef', 'x', { maxChars: 5 }),
      ].map((run) =>
        run().then(
          () => 'accepted',
          (error: unknown) => (error as IngestError).code,
        ),
      ),
    );
    expect(codes).toEqual(['EMPTY', 'NO_TEXT', 'NO_TEXT', 'TOO_LARGE']);
  });
});
