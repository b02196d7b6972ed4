/**
 * Base64 (RFC 4648, standard alphabet, padded) on Uint8Array, and float32 vectors stored as base64 of their
 * little-endian bytes. Pure TypeScript: the core has neither `Buffer` nor `atob`/`btoa` typings, and those would
 * go through a binary string anyway.
 */
import { AerieError } from './errors';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = '='.charCodeAt(0);
/** Marks a character that is not in the alphabet in `DECODE`; any OR of sextets above 63 contains one. */
const INVALID = 255;
const MAX_SEXTET = 63;
/** Code units per base64 quantum, and the bytes one quantum carries. */
const CHARS_PER_QUANTUM = 4;
const BYTES_PER_QUANTUM = 3;
const BYTES_PER_FLOAT32 = 4;
/**
 * Arguments per `String.fromCharCode.apply` call: engines cap the argument count (V8 at ~65k, some lower), so
 * long outputs are converted in slices.
 */
const FROM_CHAR_CODE_SLICE = 0x2000;

const ENCODE = new Uint8Array(ALPHABET.length);
/** Sextet of every UTF-16 code unit (64 KiB), so the hot loop needs no range check on the character. */
const DECODE = new Uint8Array(0x10000).fill(INVALID);
for (let i = 0; i < ALPHABET.length; i++) {
  ENCODE[i] = ALPHABET.charCodeAt(i);
  DECODE[ALPHABET.charCodeAt(i)] = i;
}

/** True on the (rare) big-endian hosts, where float32 bytes must be swapped to and from little-endian. */
const HOST_IS_BIG_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;

/** Malformed base64: a character outside the alphabet, misplaced padding, or a length that is not a multiple of 4. */
export class Base64Error extends AerieError<'INVALID_BASE64'> {}

/** Encodes bytes as padded standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / BYTES_PER_QUANTUM) * CHARS_PER_QUANTUM);
  const whole = bytes.length - (bytes.length % BYTES_PER_QUANTUM);
  let o = 0;
  for (let i = 0; i < whole; i += BYTES_PER_QUANTUM) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ENCODE[v >>> 18];
    out[o++] = ENCODE[(v >>> 12) & 63];
    out[o++] = ENCODE[(v >>> 6) & 63];
    out[o++] = ENCODE[v & 63];
  }
  const rest = bytes.length - whole;
  if (rest > 0) {
    const v = (bytes[whole] << 16) | (rest === 2 ? bytes[whole + 1] << 8 : 0);
    out[o] = ENCODE[v >>> 18];
    out[o + 1] = ENCODE[(v >>> 12) & 63];
    out[o + 2] = rest === 2 ? ENCODE[(v >>> 6) & 63] : PAD;
    out[o + 3] = PAD;
  }
  let text = '';
  for (let i = 0; i < out.length; i += FROM_CHAR_CODE_SLICE) {
    text += String.fromCharCode.apply(null, out.subarray(i, i + FROM_CHAR_CODE_SLICE) as unknown as number[]);
  }
  return text;
}

/**
 * The number of bytes `text` decodes to, from its length and padding alone (the characters are checked by
 * the decoder). Throws a Base64Error when the length is not a multiple of 4.
 */
export function base64DecodedLength(text: string): number {
  if (text.length % CHARS_PER_QUANTUM !== 0) {
    throw new Base64Error('INVALID_BASE64', `base64 length ${text.length} is not a multiple of 4`, {
      length: text.length,
    });
  }
  let padding = 0;
  if (text.length > 0 && text.charCodeAt(text.length - 1) === PAD) padding++;
  if (text.length > 1 && text.charCodeAt(text.length - 2) === PAD) padding++;
  return (text.length / CHARS_PER_QUANTUM) * BYTES_PER_QUANTUM - padding;
}

function invalidCharacter(text: string, index: number): Base64Error {
  const code = text.charCodeAt(index);
  const shown = code >= 0x20 && code < 0x7f ? `'${text[index]}'` : `U+${code.toString(16).padStart(4, '0')}`;
  return new Base64Error('INVALID_BASE64', `invalid base64 character ${shown} at offset ${index}`, { index });
}

/** The first character of text[from, from + count) that is not in the alphabet, as an error. */
function firstInvalid(text: string, from: number, count: number): Base64Error {
  let index = from;
  while (index < from + count - 1 && DECODE[text.charCodeAt(index)] !== INVALID) index++;
  return invalidCharacter(text, index);
}

/**
 * Decodes padded standard base64 into `target` starting at `offset`; returns the number of bytes written.
 * Strict: no whitespace, no URL-safe alphabet, padding only at the end. Throws a Base64Error on malformed
 * input or when the bytes do not fit in `target`.
 */
export function decodeBase64Into(text: string, target: Uint8Array, offset = 0): number {
  const length = base64DecodedLength(text);
  if (offset < 0 || offset + length > target.length) {
    throw new Base64Error('INVALID_BASE64', `${length} decoded bytes do not fit at offset ${offset}`, {
      length,
      offset,
      capacity: target.length,
    });
  }
  const quanta = text.length / CHARS_PER_QUANTUM;
  const fullQuanta = length % BYTES_PER_QUANTUM === 0 ? quanta : quanta - 1;
  let o = offset;
  let i = 0;
  for (let q = 0; q < fullQuanta; q++, i += CHARS_PER_QUANTUM) {
    const a = DECODE[text.charCodeAt(i)];
    const b = DECODE[text.charCodeAt(i + 1)];
    const c = DECODE[text.charCodeAt(i + 2)];
    const d = DECODE[text.charCodeAt(i + 3)];
    if ((a | b | c | d) > MAX_SEXTET) throw firstInvalid(text, i, CHARS_PER_QUANTUM);
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    target[o++] = v >>> 16;
    target[o++] = (v >>> 8) & 255;
    target[o++] = v & 255;
  }
  if (fullQuanta < quanta) {
    // The last quantum carries 1 or 2 bytes and ends in "==" or "=".
    const twoBytes = length % BYTES_PER_QUANTUM === 2;
    const a = DECODE[text.charCodeAt(i)];
    const b = DECODE[text.charCodeAt(i + 1)];
    const c = twoBytes ? DECODE[text.charCodeAt(i + 2)] : 0;
    if ((a | b | c) > MAX_SEXTET) throw firstInvalid(text, i, twoBytes ? 3 : 2);
    const v = (a << 18) | (b << 12) | (c << 6);
    target[o] = v >>> 16;
    if (twoBytes) target[o + 1] = (v >>> 8) & 255;
  }
  return length;
}

/** Decodes padded standard base64 into a new Uint8Array (see `decodeBase64Into` for the rules). */
export function decodeBase64(text: string): Uint8Array {
  const bytes = new Uint8Array(base64DecodedLength(text));
  decodeBase64Into(text, bytes);
  return bytes;
}

/**
 * Reverses the byte order of each whole group of 4 bytes in place (little- ↔ big-endian float32); a trailing
 * partial group is left as it is. Exported for tests: only a big-endian host calls it.
 */
export function swapFloat32Bytes(bytes: Uint8Array): void {
  for (let i = 0; i + 3 < bytes.length; i += BYTES_PER_FLOAT32) {
    const b0 = bytes[i];
    const b1 = bytes[i + 1];
    bytes[i] = bytes[i + 3];
    bytes[i + 1] = bytes[i + 2];
    bytes[i + 2] = b1;
    bytes[i + 3] = b0;
  }
}

/** Base64 of the little-endian IEEE 754 bytes of `values` (4 bytes per value), whatever the host's byte order. */
export function encodeFloat32LE(values: Float32Array): string {
  let bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (HOST_IS_BIG_ENDIAN) {
    bytes = bytes.slice();
    swapFloat32Bytes(bytes);
  }
  return encodeBase64(bytes);
}

/**
 * Decodes base64 of little-endian float32 bytes straight into `target` (no intermediate copy), which must have
 * exactly `base64DecodedLength(text) / 4` elements. Throws a Base64Error on malformed input or a length mismatch.
 */
export function decodeFloat32LEInto(text: string, target: Float32Array): void {
  const length = base64DecodedLength(text);
  if (length !== target.byteLength) {
    throw new Base64Error(
      'INVALID_BASE64',
      `base64 decodes to ${length} bytes, expected ${target.byteLength} (4 × ${target.length} float32)`,
      { length, expected: target.byteLength },
    );
  }
  const bytes = new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
  decodeBase64Into(text, bytes);
  if (HOST_IS_BIG_ENDIAN) swapFloat32Bytes(bytes);
}
