/**
 * The file list of a ZIP archive as its central directory declares it: names and unpacked sizes, read without
 * unpacking anything. A Word file is a ZIP package; a "zip bomb" named .docx declares parts of gigabytes that a
 * few kilobytes unpack to. mammoth (through JSZip) unpacks every part before it looks at its size, and JSZip
 * keeps the declared sizes in private fields, so this reads the archive's own directory (APPNOTE 4.3.12, 4.3.16)
 * first. About forty lines; anything it cannot read is left to mammoth, which reports a damaged file.
 */

/** One file of the archive. */
export interface ZipDirectoryEntry {
  name: string;
  /** Bytes once unpacked, as declared; `Infinity` for a ZIP64 size (4 GB or more). */
  size: number;
}

const END_SIGNATURE = 0x06054b50;
const ENTRY_SIGNATURE = 0x02014b50;
const END_RECORD_BYTES = 22;
/** The end record may be followed by a comment of at most this many bytes. */
const MAX_COMMENT_BYTES = 0xffff;
const ENTRY_HEADER_BYTES = 46;
/** A 32-bit size field holding this means "see the ZIP64 extra field": 4 GB or more. */
const ZIP64_MARK = 0xffffffff;

/** The archive's entries, or undefined when `data` has no readable central directory. */
export function readZipDirectory(data: Uint8Array): ZipDirectoryEntry[] | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const lowest = Math.max(0, data.length - END_RECORD_BYTES - MAX_COMMENT_BYTES);
  let end = -1;
  for (let at = data.length - END_RECORD_BYTES; at >= lowest; at--) {
    if (view.getUint32(at, true) === END_SIGNATURE) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder('utf-8');
  const entries: ZipDirectoryEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + ENTRY_HEADER_BYTES > data.length || view.getUint32(at, true) !== ENTRY_SIGNATURE)
      return undefined;
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const name = decoder.decode(data.subarray(at + ENTRY_HEADER_BYTES, at + ENTRY_HEADER_BYTES + nameLength));
    entries.push({ name, size: size === ZIP64_MARK ? Infinity : size });
    at += ENTRY_HEADER_BYTES + skip;
  }
  return entries;
}
