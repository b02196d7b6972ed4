import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestFile, type IngestDeps, type IngestProgress } from '../../src/ingest';

const fixture = (name: string, as = name): File =>
  new File([readFileSync(new URL(`../fixtures/ingest/${name}`, import.meta.url))], as);

describe('Word files', () => {
  it('extract paragraphs, keeping line breaks inside a paragraph and table cells apart', async () => {
    const file = fixture('paragraphs.docx');
    const events: IngestProgress[] = [];
    const doc = await ingestFile(file, { onProgress: (p) => events.push(p) });
    expect(doc).toEqual({
      name: 'paragraphs.docx',
      type: 'docx',
      size: file.size,
      text: [
        'Owls of the North',
        'Snowy owls hunt by day.',
        'Line one\nLine two after a tab',
        'Cell A',
        'Cell B',
        'Café – naïve — 日本語.',
      ].join('\n\n'),
      warnings: [],
    });
    expect(events.filter((e) => e.stage === 'convert')).toEqual([
      { stage: 'convert', done: 0, total: 1 },
      { stage: 'convert', done: 1, total: 1 },
    ]);
  });

  it('refuse a .docx that is not a ZIP package as CORRUPT without starting mammoth', async () => {
    const neverLoaded: IngestDeps = { loadMammoth: () => Promise.reject(new Error('mammoth must not load')) };
    await expect(ingestFile(fixture('corrupt.docx'), {}, neverLoaded)).rejects.toMatchObject({
      code: 'CORRUPT',
      message: '“corrupt.docx” is not a valid Word (.docx) document. The file may be damaged or misnamed.',
    });
  });

  it('refuse a ZIP archive named .docx that holds no Word document as CORRUPT', async () => {
    const run = ingestFile(fixture('not-word.docx'));
    await expect(run).rejects.toMatchObject({ code: 'CORRUPT' });
    await expect(run).rejects.toThrow(/ZIP archive but holds no Word document/);
  });

  it('refuse a legacy or password-protected Word file named .docx as CORRUPT, saying so', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
    await expect(ingestFile(new File([ole], 'locked.docx'))).rejects.toMatchObject({
      code: 'CORRUPT',
      details: { looksLike: 'a password-protected or legacy (.doc) Office file' },
    });
  });
});
