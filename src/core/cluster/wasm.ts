/**
 * Loading the WebAssembly kernels compiled from kernels/ (AssemblyScript; see scripts/kernels/compile.ts). Each
 * kernel imports its memory, so the caller lays its data out there and reads results where it put them. Where
 * WebAssembly (or its SIMD, which the kernels may use) is missing, `acquireKernel` returns undefined and the
 * caller runs its JavaScript twin.
 */
import { decodeBase64 } from '../base64';

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

/** An instance of a kernel with its own memory. */
interface Instance<T> {
  exports: T & { heapBase(): number };
  memory: KernelMemory & { grow(pages: number): number };
  /** First free byte address above the kernel's own data, 16-aligned. */
  base: number;
  leased: boolean;
}

/**
 * One instance per kernel, kept and lent out again: every WebAssembly memory reserves gigabytes of address
 * space until it is garbage-collected, and a build runs thousands of kernels (four per local clustering), so
 * fresh memories each time could exhaust it and make a kernel fall back to JavaScript mid-build.
 */
const instances = new Map<string, Instance<unknown>>();

function instantiate<T>(module: object, wasm: WasmApi, bytes: number): Instance<T> | undefined {
  try {
    // The kernels' own data (constant tables) lie in the first pages; one extra page covers them.
    const memory = new wasm.Memory({ initial: Math.ceil(bytes / WASM_PAGE) + 1 }) as Instance<T>['memory'];
    const instance = new wasm.Instance(module, { env: { memory } });
    const exports = instance.exports as Instance<T>['exports'];
    const base = Math.ceil(exports.heapBase() / 16) * 16;
    return { exports, memory, base, leased: false };
  } catch {
    return undefined;
  }
}

/** A kernel lent to one caller until `release`; views of its memory made before a later lease may detach. */
export interface KernelLease<T> {
  exports: T;
  memory: KernelMemory;
  /** First free byte address (16-aligned): at least `bytes` bytes from here on are the caller's. */
  base: number;
  /** Gives the kernel back for the next caller (its memory is reused, grown if that caller needs more). */
  release(): void;
}

/**
 * Lends a kernel whose memory has at least `bytes` free bytes above the kernel's own data, or undefined where
 * this runtime cannot run it or the memory cannot be had (the caller then runs JavaScript).
 */
export function acquireKernel<T>(base64: string, bytes: number): KernelLease<T> | undefined {
  const module = kernelModule(base64);
  const wasm = wasmApi();
  if (!module || !wasm) return undefined;
  let instance = instances.get(base64) as Instance<T> | undefined;
  if (!instance || instance.leased) {
    // Lent already (a caller that never gave it back, or a nested use): a fresh one, kept if none is.
    instance = instantiate<T>(module, wasm, bytes);
    if (!instance) return undefined;
    if (!instances.has(base64)) instances.set(base64, instance);
  }
  const missing = instance.base + bytes - instance.memory.buffer.byteLength;
  if (missing > 0) {
    try {
      instance.memory.grow(Math.ceil(missing / WASM_PAGE));
    } catch {
      return undefined;
    }
  }
  instance.leased = true;
  const lent = instance;
  return {
    exports: lent.exports,
    memory: lent.memory,
    base: lent.base,
    release() {
      lent.leased = false;
    },
  };
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
