/**
 * Windows-1252 (Western European), decoded here rather than by TextDecoder: Node's TextDecoder decodes the
 * label "windows-1252" as ISO-8859-1, turning “curly quotes”, dashes and € into invisible C1 control codes.
 * This is the WHATWG Encoding Standard's table: ISO-8859-1 except 0x80–0x9F.
 */

/**
 * Code points of bytes 0x80–0x9F in Windows-1252. HTML5 also reads numeric references to these codes this
 * way (`&#150;` is an en dash). Unlisted bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) stay C1 codes, as the standard says.
 */
export const WINDOWS_1252_C1: ReadonlyMap<number, number> = new Map([
  [0x80, 0x20ac],
  [0x82, 0x201a],
  [0x83, 0x0192],
  [0x84, 0x201e],
  [0x85, 0x2026],
  [0x86, 0x2020],
  [0x87, 0x2021],
  [0x88, 0x02c6],
  [0x89, 0x2030],
  [0x8a, 0x0160],
  [0x8b, 0x2039],
  [0x8c, 0x0152],
  [0x8e, 0x017d],
  [0x91, 0x2018],
  [0x92, 0x2019],
  [0x93, 0x201c],
  [0x94, 0x201d],
  [0x95, 0x2022],
  [0x96, 0x2013],
  [0x97, 0x2014],
  [0x98, 0x02dc],
  [0x99, 0x2122],
  [0x9a, 0x0161],
  [0x9b, 0x203a],
  [0x9c, 0x0153],
  [0x9e, 0x017e],
  [0x9f, 0x0178],
]);

/** Code unit of every byte value. */
const TABLE = new Uint16Array(256);
for (let byte = 0; byte < 256; byte++) TABLE[byte] = WINDOWS_1252_C1.get(byte) ?? byte;

/** The platform's byte order, which a Uint16Array's bytes follow. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A decoder with TextDecoder's `decode` (every byte is one character, so there is no state to stream). */
export class Windows1252Decoder {
  readonly encoding = 'windows-1252';
  private readonly utf16 = new TextDecoder(LITTLE_ENDIAN ? 'utf-16le' : 'utf-16be');

  /** Decodes `bytes`; `options.stream` is accepted for TextDecoder compatibility and has no effect. */
  decode(bytes: Uint8Array = new Uint8Array(0), _options?: { stream?: boolean }): string {
    const units = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) units[i] = TABLE[bytes[i]];
    return this.utf16.decode(units);
  }
}
