/**
 * The byte swap a big-endian host applies to float32 vectors, checked against DataView's big- and little-endian
 * writes (this machine, like every host the tests run on, is little-endian, so encodeFloat32LE never calls it
 * here). Encoding and decoding themselves are tested against Node's Buffer in tree-format.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { decodeFloat32LEInto, encodeFloat32LE, swapFloat32Bytes } from '../../src/core/base64';

const VALUES = [1, -2.5, Math.PI, 1e-30, -0, Infinity, 3.4e38, 0.1];

/** The float32 bytes of `values`, written by DataView in the given byte order. */
function dataViewBytes(values: number[], littleEndian: boolean): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setFloat32(i * 4, v, littleEndian));
  return new Uint8Array(view.buffer);
}

describe('swapFloat32Bytes', () => {
  it('turns little-endian float32 bytes into big-endian ones and back (DataView reference)', () => {
    const bytes = dataViewBytes(VALUES, true);
    swapFloat32Bytes(bytes);
    expect([...bytes]).toEqual([...dataViewBytes(VALUES, false)]);
    swapFloat32Bytes(bytes);
    expect([...bytes]).toEqual([...dataViewBytes(VALUES, true)]);
  });

  it('reverses each whole group of four and leaves a trailing partial group alone', () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    swapFloat32Bytes(bytes);
    expect([...bytes]).toEqual([4, 3, 2, 1, 8, 7, 6, 5, 9, 10, 11]);
    const empty = new Uint8Array(0);
    swapFloat32Bytes(empty);
    expect(empty.length).toBe(0);
  });
});

describe('encodeFloat32LE on this (little-endian) host', () => {
  it('writes the bytes DataView writes in little-endian order, and decodes them back', () => {
    const values = Float32Array.from(VALUES);
    const text = encodeFloat32LE(values);
    expect(text).toBe(Buffer.from(dataViewBytes(VALUES, true)).toString('base64'));
    const back = new Float32Array(values.length);
    decodeFloat32LEInto(text, back);
    expect([...back]).toEqual([...values]);
  });
});
