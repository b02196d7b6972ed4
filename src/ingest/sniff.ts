/**
 * Recognising a file's format from its first bytes (its signature) and its name. The content decides over the
 * extension where it is unambiguous (a PDF named .txt is read as a PDF); the extension decides between text
 * flavours (.md, .html), which share no signature.
 */

/** What the first bytes of a file say it is. */
export type Signature =
  | { kind: 'pdf' }
  | { kind: 'zip' }
  /** OLE2 compound file: legacy .doc, .xls, .ppt, .msg. */
  | { kind: 'ole' }
  | { kind: 'rtf' }
  /** A known binary format; `label` names it for messages ("a PNG image"). */
  | { kind: 'binary'; label: string }
  /** No known signature (text, or binary data of an unknown kind). */
  | { kind: 'none' };

interface Magic {
  /** Byte values; -1 matches any byte. */
  bytes: number[];
  offset: number;
  label: string;
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

/** Signatures of common binary formats, to name them in messages. */
const BINARY_MAGIC: Magic[] = [
  { bytes: [0x89, ...ascii('PNG\r\n\x1a\n')], offset: 0, label: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], offset: 0, label: 'a JPEG image' },
  { bytes: ascii('GIF8'), offset: 0, label: 'a GIF image' },
  { bytes: [...ascii('RIFF'), -1, -1, -1, -1, ...ascii('WEBP')], offset: 0, label: 'a WebP image' },
  { bytes: [...ascii('RIFF'), -1, -1, -1, -1, ...ascii('WAVE')], offset: 0, label: 'a WAV audio file' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], offset: 0, label: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], offset: 0, label: 'a TIFF image' },
  { bytes: ascii('ftyp'), offset: 4, label: 'a video or image (MP4/MOV/HEIC)' },
  { bytes: ascii('ID3'), offset: 0, label: 'an MP3 audio file' },
  { bytes: ascii('OggS'), offset: 0, label: 'an Ogg audio file' },
  { bytes: ascii('fLaC'), offset: 0, label: 'a FLAC audio file' },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], offset: 0, label: 'a Matroska/WebM video' },
  { bytes: [0x1f, 0x8b], offset: 0, label: 'a gzip archive' },
  { bytes: [...ascii('7z'), 0xbc, 0xaf, 0x27, 0x1c], offset: 0, label: 'a 7-Zip archive' },
  { bytes: ascii('Rar!\x1a\x07'), offset: 0, label: 'a RAR archive' },
  { bytes: [0xfd, ...ascii('7zXZ'), 0x00], offset: 0, label: 'an xz archive' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], offset: 0, label: 'a Zstandard archive' },
  { bytes: [0x7f, ...ascii('ELF')], offset: 0, label: 'a program (ELF)' },
  { bytes: [0x00, ...ascii('asm')], offset: 0, label: 'a WebAssembly module' },
  { bytes: ascii('SQLite format 3\0'), offset: 0, label: 'an SQLite database' },
  { bytes: ascii('wOFF'), offset: 0, label: 'a font' },
  { bytes: ascii('wOF2'), offset: 0, label: 'a font' },
];

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_MAGIC = [0x50, 0x4b, 0x05, 0x06];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const RTF_MAGIC = ascii('{\\rtf');
const PDF_MAGIC = ascii('%PDF-');
/** PDF.js, like Acrobat, accepts junk before the header within the first 1,024 bytes. */
const PDF_HEADER_WINDOW = 1024;

function matchesAt(head: Uint8Array, bytes: number[], offset: number): boolean {
  if (head.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== -1 && head[offset + i] !== bytes[i]) return false;
  }
  return true;
}

/** Recognises the format of a file from its first bytes (at least the first few hundred). */
export function sniffSignature(head: Uint8Array): Signature {
  const window = Math.min(head.length - PDF_MAGIC.length, PDF_HEADER_WINDOW);
  for (let offset = 0; offset <= window; offset++) {
    if (head[offset] === PDF_MAGIC[0] && matchesAt(head, PDF_MAGIC, offset)) return { kind: 'pdf' };
  }
  if (matchesAt(head, ZIP_MAGIC, 0) || matchesAt(head, EMPTY_ZIP_MAGIC, 0)) return { kind: 'zip' };
  if (matchesAt(head, OLE_MAGIC, 0)) return { kind: 'ole' };
  if (matchesAt(head, RTF_MAGIC, 0)) return { kind: 'rtf' };
  for (const magic of BINARY_MAGIC) {
    if (matchesAt(head, magic.bytes, magic.offset)) return { kind: 'binary', label: magic.label };
  }
  return { kind: 'none' };
}

/** Extensions of formats Aerie does not read, with a name for messages. */
const UNSUPPORTED_EXTENSIONS: Record<string, string> = {
  doc: 'legacy Word (.doc)',
  dot: 'legacy Word (.dot)',
  docm: 'macro-enabled Word (.docm)',
  rtf: 'Rich Text (.rtf)',
  odt: 'OpenDocument text (.odt)',
  pages: 'Apple Pages',
  epub: 'EPUB e-book',
  mobi: 'Kindle e-book',
  azw3: 'Kindle e-book',
  xls: 'Excel',
  xlsx: 'Excel',
  ods: 'OpenDocument spreadsheet',
  numbers: 'Apple Numbers',
  ppt: 'PowerPoint',
  pptx: 'PowerPoint',
  odp: 'OpenDocument presentation',
  key: 'Keynote',
  png: 'image (.png)',
  jpg: 'image (.jpg)',
  jpeg: 'image (.jpeg)',
  gif: 'image (.gif)',
  webp: 'image (.webp)',
  bmp: 'image (.bmp)',
  tif: 'image (.tif)',
  tiff: 'image (.tiff)',
  heic: 'image (.heic)',
  svg: 'image (.svg)',
  ico: 'icon (.ico)',
  mp3: 'audio',
  wav: 'audio',
  m4a: 'audio',
  ogg: 'audio',
  flac: 'audio',
  mp4: 'video',
  mov: 'video',
  avi: 'video',
  mkv: 'video',
  webm: 'video',
  zip: 'ZIP archive',
  gz: 'gzip archive',
  tgz: 'gzip archive',
  tar: 'tar archive',
  '7z': '7-Zip archive',
  rar: 'RAR archive',
  exe: 'program (.exe)',
  dll: 'library (.dll)',
  dmg: 'disk image',
  iso: 'disk image',
  ttf: 'font',
  otf: 'font',
  woff: 'font',
  woff2: 'font',
};

const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd', 'mkdn']);
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml']);

/** How a file will be read, or why it is refused without reading further. */
export type Route =
  /** `mismatch` names what the content turned out to be when it overrides the extension (for a warning). */
  | { read: 'pdf' | 'docx' | 'html' | 'txt' | 'md'; mismatch?: string }
  /** A .pdf or .docx whose content is something else; `looksLike` names it when recognised. */
  | { refuse: 'CORRUPT'; format: 'pdf' | 'docx'; looksLike?: string }
  /** A known format Aerie does not read; `label` names the format ("legacy Word (.doc)"). */
  | { refuse: 'UNSUPPORTED_TYPE'; label: string }
  /** Binary data where text was expected; `looksLike` names it ("a PNG image"). */
  | { refuse: 'BINARY'; looksLike: string };

/** The lower-cased extension of a file name, without the dot ("" when it has none). */
export function extensionOf(name: string): string {
  const match = /\.([^./\\]+)$/.exec(name);
  return match ? match[1].toLowerCase() : '';
}

/** Decides how to read a file from its name and the signature of its first bytes. */
export function routeFile(name: string, signature: Signature): Route {
  const ext = extensionOf(name);
  if (signature.kind === 'pdf') return ext === 'pdf' ? { read: 'pdf' } : { read: 'pdf', mismatch: 'a PDF' };
  if (ext === 'pdf') return { refuse: 'CORRUPT', format: 'pdf', looksLike: describe(signature) };
  if (ext === 'docx') {
    if (signature.kind === 'zip') return { read: 'docx' };
    return { refuse: 'CORRUPT', format: 'docx', looksLike: describe(signature) };
  }
  if (signature.kind === 'ole')
    return { refuse: 'UNSUPPORTED_TYPE', label: 'legacy Office (.doc, .xls, .ppt)' };
  if (signature.kind === 'rtf') return { refuse: 'UNSUPPORTED_TYPE', label: 'Rich Text (.rtf)' };
  if (Object.hasOwn(UNSUPPORTED_EXTENSIONS, ext))
    return { refuse: 'UNSUPPORTED_TYPE', label: UNSUPPORTED_EXTENSIONS[ext] };
  if (signature.kind === 'zip') return { refuse: 'BINARY', looksLike: 'a ZIP archive' };
  if (signature.kind === 'binary') return { refuse: 'BINARY', looksLike: signature.label };
  if (HTML_EXTENSIONS.has(ext)) return { read: 'html' };
  return { read: MARKDOWN_EXTENSIONS.has(ext) ? 'md' : 'txt' };
}

function describe(signature: Signature): string | undefined {
  switch (signature.kind) {
    case 'zip':
      return 'a ZIP archive';
    case 'ole':
      // Word saves a password-protected .docx inside an OLE container, like a legacy .doc.
      return 'a password-protected or legacy (.doc) Office file';
    case 'rtf':
      return 'a Rich Text file';
    case 'binary':
      return signature.label;
    default:
      return undefined;
  }
}
