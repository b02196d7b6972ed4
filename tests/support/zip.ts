/**
 * A minimal ZIP writer FOR TESTS (Word files are ZIP packages): stored or deflated entries, and entries whose
 * headers declare sizes of the test's choosing (a "zip bomb" as its central directory describes it).
 */
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';

/** One file of the archive. */
export interface ZipEntry {
  name: string;
  /** The file's bytes (or text), or with `deflated` its raw deflate stream. */
  data: Uint8Array | string;
  /** Deflate the data (method 8). Default false (stored). */
  deflate?: boolean;
  /** `data` is already a raw deflate stream (method 8); give its unpacked size in `declaredSize`. */
  deflated?: boolean;
  /** Uncompressed size written in the headers instead of the real one. */
  declaredSize?: number;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The fields a local header (from byte 4) and a central directory entry (from byte 6) share, in order. */
function writeFields(
  header: Buffer,
  at: number,
  f: { method: number; crc: number; compressed: number; size: number; name: number },
): void {
  header.writeUInt16LE(20, at); // version needed
  header.writeUInt16LE(f.method, at + 4);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(f.compressed, at + 14);
  header.writeUInt32LE(f.size, at + 18);
  header.writeUInt16LE(f.name, at + 22);
}

/** The bytes of a ZIP archive holding `entries`. */
export function makeZip(entries: readonly ZipEntry[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    const body = entry.deflated ? Buffer.from(raw) : entry.deflate ? deflateRawSync(raw) : Buffer.from(raw);
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? raw.length;
    // A pre-deflated stream's CRC would need all of its unpacked bytes; readers check it only on request.
    const crc = entry.deflated ? 0 : crc32(raw);
    const method = entry.deflate || entry.deflated ? 8 : 0;
    const fields = {
      method,
      crc,
      compressed: body.length,
      size: Math.min(size, 0xffffffff),
      name: name.length,
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeFields(local, 4, fields);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    writeFields(central, 6, fields);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** The smallest parts of a Word document around `body` (the XML inside <w:body>). */
export function docxParts(body: string): ZipEntry[] {
  return [
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    {
      name: 'word/document.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${body}</w:body></w:document>`,
      deflate: true,
    },
  ];
}

/** Bytes of each repeated piece of `bombStream`. */
const BOMB_PIECE_BYTES = 1_000_000;

/**
 * A raw deflate stream that unpacks to `prefix`, then `megabytes` × 1,000,000 bytes of `fill`, then `suffix`: a
 * real "zip bomb" part (about 1 kB per megabyte), built in a millisecond per megabyte from one deflated,
 * sync-flushed megabyte (a non-final block ending on a byte boundary) repeated.
 * @returns the stream and its unpacked size.
 */
export function bombStream(
  megabytes: number,
  { fill = 'A', prefix = '', suffix = '' } = {},
): { data: Uint8Array; size: number } {
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const head = flushed(Buffer.from(prefix, 'utf8'));
  const piece = flushed(Buffer.alloc(BOMB_PIECE_BYTES, fill));
  const tail = deflateRawSync(Buffer.from(suffix, 'utf8'));
  const data = Buffer.concat([head, ...Array.from({ length: megabytes }, () => piece), tail]);
  const size = Buffer.byteLength(prefix) + megabytes * BOMB_PIECE_BYTES + Buffer.byteLength(suffix);
  return { data: new Uint8Array(data), size };
}
