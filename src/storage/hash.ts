/**
 * SHA-256 through Web Crypto (`crypto.subtle`: on the main thread, in workers and in Node 20, but only in
 * secure contexts — https or localhost), and random ids.
 */
import { StorageError } from './errors';

const HEX_RADIX = 16;
const BYTE_HEX_DIGITS = 2;
/** Bytes of a random id: 128 bits, as many as a UUID. */
const RANDOM_ID_BYTES = 16;

const encoder = new TextEncoder();

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(HEX_RADIX).padStart(BYTE_HEX_DIGITS, '0');
  return hex;
}

/**
 * Lower-case hex SHA-256 of the UTF-8 bytes of `text`.
 * @throws StorageError UNAVAILABLE when the page is not a secure context (no `crypto.subtle`).
 */
export function sha256Hex(text: string): Promise<string> {
  return sha256OfBytes(encoder.encode(text));
}

/**
 * Lower-case hex SHA-256 of `bytes` (a kept file's content).
 * @throws StorageError UNAVAILABLE when the page is not a secure context (no `crypto.subtle`).
 */
export async function sha256OfBytes(bytes: Uint8Array): Promise<string> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) {
    throw new StorageError(
      'UNAVAILABLE',
      'Saving needs the browser’s Web Crypto, which is only offered over https or on localhost. Open Aerie ' +
        'through https (or localhost).',
    );
  }
  return toHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/**
 * SHA-256 of a list of parts, unambiguously: the parts are JSON-encoded as one array, so no choice of texts
 * can make two different lists hash alike ("a|b" + "c" vs "a" + "b|c").
 */
export function hashParts(parts: readonly (string | number | null | readonly string[])[]): Promise<string> {
  return sha256Hex(JSON.stringify(parts));
}

/**
 * A random id of 32 hex digits (128 bits from `crypto.getRandomValues`, which unlike `randomUUID` exists in
 * insecure contexts too). Ids must be unique, not reproducible, so they do not come from the seeded generator.
 */
export function randomId(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(RANDOM_ID_BYTES)));
}
