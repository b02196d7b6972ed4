import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestFile, type IngestDeps, type IngestProgress } from '../../src/ingest';
import { bombStream, docxParts, makeZip } from '../support/zip';

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

  it('refuse a “zip bomb” (1 GB of text in 1 MB) from its declared size, before unpacking anything', async () => {
    const [types, rels, document] = docxParts('');
    const bomb = bombStream(1000, {
      prefix:
        '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
      suffix: '</w:t></w:r></w:p></w:body></w:document>',
    });
    const zip = makeZip([
      types,
      rels,
      { name: document.name, data: bomb.data, deflated: true, declaredSize: bomb.size },
    ]);
    expect(zip.length).toBeLessThan(1_500_000);
    const neverLoaded: IngestDeps = { loadMammoth: () => Promise.reject(new Error('mammoth must not load')) };
    const refusal = ingestFile(new File([zip], 'bomb.docx'), {}, neverLoaded);
    await expect(refusal).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message:
        '“bomb.docx” would expand to 1 GB when unpacked, more than the 200 MB Aerie unpacks from a Word ' +
        'file, so it was not opened: a document of that size is almost always a “zip bomb”. If it is a real ' +
        'document, save it as plain text (.txt) and add that instead.',
    });
  });

  it('say in plain words what is wrong inside a package, never the parser’s own message', async () => {
    const broken = makeZip(docxParts('<w:p><w:r><w:t>Hello</w:p>'));
    const xml = await ingestFile(new File([broken], 'broken.docx')).catch((e: unknown) => e);
    expect(xml).toMatchObject({ code: 'CORRUPT' });
    expect((xml as Error).message).toMatch(/the document inside the package is damaged or cut short/);
    // A part that unpacks to more than its header says: a bomb hiding its size.
    const parts = docxParts('<w:p><w:r><w:t>Hello owls</w:t></w:r></w:p>');
    parts[2] = { ...parts[2], declaredSize: 12 };
    const lying = await ingestFile(new File([makeZip(parts)], 'lying.docx')).catch((e: unknown) => e);
    expect((lying as Error).message).toMatch(/do not unpack to the sizes the package declares/);
    for (const error of [xml, lying]) expect((error as Error).message).not.toMatch(/xmldom|Bug :|@#\[line/);
  });
});
