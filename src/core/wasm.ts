/**
 * Loading the WebAssembly kernels compiled from kernels/ (AssemblyScript; see scripts/kernels/compile.ts). Each
 * kernel imports its memory, so the caller sizes it for the data and reads results where it put them. Where
 * WebAssembly (or its SIMD, which the kernels may use) is missing, `instantiateKernel` returns undefined and
 * the caller runs its JavaScript twin.
 */
import { decodeBase64 } from './base64';

/** The part of the WebAssembly API used here (core code is typed without the DOM's or Node's globals). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number }) => { readonly buffer: ArrayBuffer };
}

/** A WebAssembly memory (its buffer is replaced when it grows). */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
}

/** Bytes of a WebAssembly page. */
export const WASM_PAGE = 65536;

/** Compiled modules by their base64 text (null: this runtime cannot compile it). */
const modules = new Map<string, object | null>();

function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** The compiled module of a kernel, once per runtime; undefined where it cannot be compiled. */
function kernelModule(base64: string): object | undefined {
  let module = modules.get(base64);
  if (module === undefined) {
    const wasm = wasmApi();
    const bytes = decodeBase64(base64);
    try {
      module = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
    } catch {
      module = null;
    }
    modules.set(base64, module);
  }
  return module ?? undefined;
}

/**
 * A fresh instance of a kernel over a fresh memory of at least `bytes` bytes above the kernel's own data
 * (`heapBase`), or undefined where this runtime cannot run it or the memory cannot be had.
 * @returns the kernel's exports, its memory, and the first free byte address (16-aligned).
 */
export function instantiateKernel<T>(
  base64: string,
  bytes: number,
): { exports: T & { heapBase(): number }; memory: KernelMemory; base: number } | undefined {
  const module = kernelModule(base64);
  const wasm = wasmApi();
  if (!module || !wasm) return undefined;
  try {
    // The kernels' own data (constant tables) lie in the first pages; one extra page covers them.
    const memory = new wasm.Memory({ initial: Math.ceil(bytes / WASM_PAGE) + 1 });
    const instance = new wasm.Instance(module, { env: { memory } });
    const exports = instance.exports as T & { heapBase(): number };
    const base = Math.ceil(exports.heapBase() / 16) * 16;
    if (base + bytes > memory.buffer.byteLength) return undefined;
    return { exports, memory, base };
  } catch {
    return undefined;
  }
}

/** Lays arrays out one after another from `base` (each 16-aligned) in a kernel's memory. */
export class KernelArrays {
  private at: number;

  constructor(
    private readonly memory: KernelMemory,
    base: number,
  ) {
    this.at = base;
  }

  /** Bytes `layout` needs for arrays of these byte lengths (alignment included). */
  static bytes(lengths: readonly number[]): number {
    return lengths.reduce((sum, n) => sum + Math.ceil(n / 16) * 16, 0);
  }

  /** The next `length` float64s, and their byte address. */
  float64(length: number): [Float64Array, number] {
    const at = this.take(length * 8);
    return [new Float64Array(this.memory.buffer, at, length), at];
  }

  /** The next `length` int32s, and their byte address. */
  int32(length: number): [Int32Array, number] {
    const at = this.take(length * 4);
    return [new Int32Array(this.memory.buffer, at, length), at];
  }

  /** The next `length` float32s, and their byte address. */
  float32(length: number): [Float32Array, number] {
    const at = this.take(length * 4);
    return [new Float32Array(this.memory.buffer, at, length), at];
  }

  private take(bytes: number): number {
    const at = this.at;
    this.at += Math.ceil(bytes / 16) * 16;
    return at;
  }
}
