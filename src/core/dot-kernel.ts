/**
 * A WebAssembly SIMD kernel for the one hot loop of retrieval: the dot product of a float64 query with every
 * float32 row of a tree's packed embeddings. It performs exactly the arithmetic of retrieve.ts's `queryDot`
 * — four running sums over every fourth coordinate (kept as two f64x2 lanes pairs), the leftover coordinates
 * added to the first, then (s0 + s1) + (s2 + s3), every product and sum in float64 without fused
 * multiply-add — so scores are bit-for-bit those of the JavaScript loop, two lanes at a time.
 *
 * The module is assembled here from its instructions (no build step, no binary file); `WebAssembly.validate`
 * decides whether this runtime has SIMD, and callers fall back to JavaScript when `createDotKernel` returns
 * undefined. Memory layout (`allocateRows`): the query (dim float64) at 0, the scores (count float64) after it,
 * the rows (count × dim float32) after those.
 */

/** Little-endian unsigned LEB128. */
function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

/** A section: id, byte length, contents. */
function section(id: number, bytes: number[]): number[] {
  return [id, ...uleb(bytes.length), ...bytes];
}

/** A vector of items, prefixed by its length. */
function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/** An export name (ASCII). */
function name(text: string): number[] {
  return [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

// Instructions used below (WebAssembly core and SIMD opcodes).
const I32 = 0x7f;
const F64 = 0x7c;
const V128 = 0x7b;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const i32 = (v: number) => [0x41, ...sleb(v)];
const I32_ADD = 0x6a;
const I32_MUL = 0x6c;
const I32_AND = 0x71;
const I32_SHL = 0x74;
const I32_GE_U = 0x4f;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const brIf = (depth: number) => [0x0d, depth];
const br = (depth: number) => [0x0c, depth];
const f64Load = (offset: number) => [0x2b, 3, ...uleb(offset)];
const f32Load = (offset: number) => [0x2a, 2, ...uleb(offset)];
const f64Store = (offset: number) => [0x39, 3, ...uleb(offset)];
const F64_PROMOTE_F32 = 0xbb;
/** f64.const 0 (eight zero bytes, little-endian). */
const f64Const0 = () => [0x44, 0, 0, 0, 0, 0, 0, 0, 0];
const F64_ADD = 0xa0;
const F64_MUL = 0xa2;
const simd = (op: number, ...rest: number[]) => [0xfd, ...uleb(op), ...rest];
const v128Load = (offset: number) => simd(0x00, 3, ...uleb(offset));
const v128Load64Zero = (offset: number) => simd(0x5d, 3, ...uleb(offset));
const V128_ZERO = simd(0x0c, ...new Array(16).fill(0));
const F64X2_PROMOTE_LOW_F32X4 = simd(0x5f);
const F64X2_ADD = simd(0xf0);
const F64X2_MUL = simd(0xf2);
const f64x2Lane = (lane: number) => simd(0x21, lane);

/** Little-endian signed LEB128 (i32.const immediates). */
function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

// dots(q, dim, rows, count, out): out[r] = query · row r, for r < count (byte addresses).
const Q = 0;
const DIM = 1;
const ROWS = 2;
const COUNT = 3;
const OUT = 4;
const R = 5;
const K = 6;
const P = 7;
const WHOLE = 8;
const ACC01 = 9;
const ACC23 = 10;
const S0 = 11;
/** Address of the query's coordinate k (+ offset in the load) and of the row's. */
const queryAt = [...get(Q), ...get(K), ...i32(3), I32_SHL, I32_ADD];
const rowAt = [...get(P), ...get(K), ...i32(2), I32_SHL, I32_ADD];

// prettier-ignore
const body = [
  ...vec([
    [4, I32],
    [2, V128],
    [1, F64],
  ]),
  // whole = dim & −4 (coordinates taken four at a time)
  ...get(DIM), ...i32(-4), I32_AND, ...set(WHOLE),
  ...BLOCK,
  ...LOOP,
  ...get(R), ...get(COUNT), I32_GE_U, ...brIf(1),
  // p = rows + r · dim · 4
  ...get(ROWS), ...get(R), ...get(DIM), I32_MUL, ...i32(2), I32_SHL, I32_ADD, ...set(P),
  ...V128_ZERO, ...set(ACC01),
  ...V128_ZERO, ...set(ACC23),
  ...i32(0), ...set(K),
  ...BLOCK,
  ...LOOP,
  ...get(K), ...get(WHOLE), I32_GE_U, ...brIf(1),
  // (s0, s1) += (q[k], q[k+1]) · (row[k], row[k+1])
  ...get(ACC01),
  ...queryAt, ...v128Load(0),
  ...rowAt, ...v128Load64Zero(0), ...F64X2_PROMOTE_LOW_F32X4,
  ...F64X2_MUL, ...F64X2_ADD, ...set(ACC01),
  // (s2, s3) += (q[k+2], q[k+3]) · (row[k+2], row[k+3])
  ...get(ACC23),
  ...queryAt, ...v128Load(16),
  ...rowAt, ...v128Load64Zero(8), ...F64X2_PROMOTE_LOW_F32X4,
  ...F64X2_MUL, ...F64X2_ADD, ...set(ACC23),
  ...get(K), ...i32(4), I32_ADD, ...set(K),
  ...br(0),
  END,
  END,
  // s0 += q[k] · row[k] for the leftover coordinates
  ...get(ACC01), ...f64x2Lane(0), ...set(S0),
  ...BLOCK,
  ...LOOP,
  ...get(K), ...get(DIM), I32_GE_U, ...brIf(1),
  ...get(S0),
  ...queryAt, ...f64Load(0),
  ...rowAt, ...f32Load(0), F64_PROMOTE_F32,
  F64_MUL, F64_ADD, ...set(S0),
  ...get(K), ...i32(1), I32_ADD, ...set(K),
  ...br(0),
  END,
  END,
  // out[r] = (s0 + s1) + (s2 + s3)
  ...get(OUT), ...get(R), ...i32(3), I32_SHL, I32_ADD,
  ...get(S0), ...get(ACC01), ...f64x2Lane(1), F64_ADD,
  ...get(ACC23), ...f64x2Lane(0), ...get(ACC23), ...f64x2Lane(1), F64_ADD,
  F64_ADD,
  ...f64Store(0),
  ...get(R), ...i32(1), I32_ADD, ...set(R),
  ...br(0),
  END,
  END,
  END,
];

// norms(dim, rows, count, out): out[r] = √(Σ_k row_r[k]²) for r < count, each sum taken in the order k = 0, 1, …
// exactly as vector.ts's `norm` does (a float64 running sum of the float64 squares of the float32 values). One
// running sum is a chain of dependent additions, so NORM_ROWS rows are summed side by side, one row per f64x2
// lane: each lane is still its own row's sum in order, so the norms are bit for bit `norm`'s. The rows past the
// last multiple of NORM_ROWS are summed one at a time.
const NORM_ROWS = 8;
const N_DIM = 0;
const N_ROWS = 1;
const N_COUNT = 2;
const N_OUT = 3;
const N_R = 4;
/** Address of the coordinate being added in the first of the rows summed together. */
const N_P = 5;
/** Address just past the first row's last coordinate. */
const N_END = 6;
/** N_STRIDE + j − 1 holds j · dim · 4, the distance from the first row to its j-th follower (j ≥ 1). */
const N_STRIDE = 7;
const N_ACC = N_STRIDE + NORM_ROWS - 1;
const N_X = N_ACC + NORM_ROWS / 2;
const N_S = N_X + 1;
const N_XS = N_S + 1;
const tee = (i: number) => [0x22, i];
const I32_SUB = 0x6b;
const I32_LT_U = 0x49;
const F64_SQRT = 0x9f;
const v128Load32Zero = (offset: number) => simd(0x5c, 2, ...uleb(offset));
const v128Load32Lane = (offset: number, lane: number) => simd(0x56, 2, ...uleb(offset), lane);
const v128Store = (offset: number) => simd(0x0b, 4, ...uleb(offset));
const F64X2_SQRT = simd(0xef);
/** Address of the current coordinate of the first row's j-th follower (j = 0: the first row). */
const coordinateOf = (j: number) => [...get(N_P), ...(j === 0 ? [] : [...get(N_STRIDE + j - 1), I32_ADD])];
/** acc_pair += (x_{2·pair}, x_{2·pair+1})², the current coordinate of two rows, as float64, squared. */
const addSquares = (pair: number) => [
  ...get(N_ACC + pair),
  ...coordinateOf(2 * pair + 1),
  ...coordinateOf(2 * pair),
  ...v128Load32Zero(0),
  ...v128Load32Lane(0, 1),
  ...F64X2_PROMOTE_LOW_F32X4,
  ...tee(N_X),
  ...get(N_X),
  ...F64X2_MUL,
  ...F64X2_ADD,
  ...set(N_ACC + pair),
];
/** Byte address of out[r] in `norms`. */
const normAddress = [...get(N_OUT), ...get(N_R), ...i32(3), I32_SHL, I32_ADD];
const pairs = Array.from({ length: NORM_ROWS / 2 }, (_, pair) => pair);

// prettier-ignore
const normsBody = [
  ...vec([
    [3 + NORM_ROWS - 1, I32],
    [NORM_ROWS / 2 + 1, V128],
    [2, F64],
  ]),
  // the strides: j · dim · 4 bytes
  ...Array.from({ length: NORM_ROWS - 1 }, (_, j) => [
    ...get(N_DIM), ...i32(4 * (j + 1)), I32_MUL, ...set(N_STRIDE + j),
  ]).flat(),
  // NORM_ROWS rows at a time while count − r ≥ NORM_ROWS (r ≤ count throughout)
  ...BLOCK,
  ...LOOP,
  ...get(N_COUNT), ...get(N_R), I32_SUB, ...i32(NORM_ROWS), I32_LT_U, ...brIf(1),
  ...get(N_ROWS), ...get(N_R), ...get(N_STRIDE), I32_MUL, I32_ADD, ...set(N_P),
  ...get(N_P), ...get(N_STRIDE), I32_ADD, ...set(N_END),
  ...pairs.flatMap((pair) => [...V128_ZERO, ...set(N_ACC + pair)]),
  ...BLOCK,
  ...LOOP,
  ...get(N_P), ...get(N_END), I32_GE_U, ...brIf(1),
  ...pairs.flatMap(addSquares),
  ...get(N_P), ...i32(4), I32_ADD, ...set(N_P),
  ...br(0),
  END,
  END,
  ...pairs.flatMap((pair) => [...normAddress, ...get(N_ACC + pair), ...F64X2_SQRT, ...v128Store(16 * pair)]),
  ...get(N_R), ...i32(NORM_ROWS), I32_ADD, ...set(N_R),
  ...br(0),
  END,
  END,
  // then one row at a time
  ...BLOCK,
  ...LOOP,
  ...get(N_R), ...get(N_COUNT), I32_GE_U, ...brIf(1),
  ...get(N_ROWS), ...get(N_R), ...get(N_STRIDE), I32_MUL, I32_ADD, ...set(N_P),
  ...get(N_P), ...get(N_STRIDE), I32_ADD, ...set(N_END),
  ...f64Const0(), ...set(N_S),
  ...BLOCK,
  ...LOOP,
  ...get(N_P), ...get(N_END), I32_GE_U, ...brIf(1),
  ...get(N_S),
  ...get(N_P), ...f32Load(0), F64_PROMOTE_F32, ...tee(N_XS), ...get(N_XS), F64_MUL,
  F64_ADD, ...set(N_S),
  ...get(N_P), ...i32(4), I32_ADD, ...set(N_P),
  ...br(0),
  END,
  END,
  ...normAddress, ...get(N_S), F64_SQRT, ...f64Store(0),
  ...get(N_R), ...i32(1), I32_ADD, ...set(N_R),
  ...br(0),
  END,
  END,
  END,
];

/** The module's bytes. */
export const DOT_KERNEL_BYTES = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(
    1,
    vec([
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0],
      [0x60, ...vec([[I32], [I32], [I32], [I32]]), 0],
    ]),
  ),
  // The memory is imported: it is the one `allocateRows` made for a tree's embeddings.
  ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0]])),
  ...section(3, vec([[0], [1]])),
  ...section(
    7,
    vec([
      [...name('dots'), 0x00, 0],
      [...name('norms'), 0x00, 1],
    ]),
  ),
  ...section(
    10,
    vec([
      [...uleb(body.length), ...body],
      [...uleb(normsBody.length), ...normsBody],
    ]),
  ),
]);

const PAGE = 65536;
const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** Query · row for every packed row, in WebAssembly (see the module's comment). */
export interface DotKernel {
  /** Fills `out[r]` with the dot product of `query` and row r of the rows given to `createDotKernel`. */
  dots(query: Float64Array, out: Float64Array): void;
  /** Fills `out[r]` with the Euclidean norm of row r, bit for bit vector.ts's `norm` of that row. */
  norms(out: Float64Array): void;
}

/** The part of the WebAssembly API used here (core code is typed without the DOM's or Node's globals). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number }) => { readonly buffer: ArrayBuffer };
}
type DotsExport = (query: number, dim: number, rows: number, count: number, out: number) => void;
type NormsExport = (dim: number, rows: number, count: number, out: number) => void;

/**
 * Fewer embedding values than this (about 85 nodes of 384 dimensions) go in a plain Float32Array: copying them
 * at the first query costs little, and each WebAssembly memory reserves a large span of address space.
 */
export const KERNEL_MEMORY_MIN_VALUES = 1 << 15;

/** Where `allocateRows` put a tree's rows, and the memory they live in (keyed by that memory's buffer). */
interface RowsMemory {
  memory: object;
  outAt: number;
  rowsAt: number;
  count: number;
  dim: number;
}
const rowsMemories = new WeakMap<ArrayBuffer, RowsMemory>();

let compiled: object | null | undefined;

function wasmApi(): WasmApi | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (compiled === undefined) {
    try {
      compiled = wasm?.validate(DOT_KERNEL_BYTES) ? new wasm.Module(DOT_KERNEL_BYTES) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled ? wasm : undefined;
}

/**
 * A zeroed `count × dim` Float32Array for a tree's embeddings, placed in WebAssembly memory laid out for the
 * kernel when this runtime has WebAssembly SIMD and there are at least `minValues` values (a plain Float32Array
 * otherwise), so that the kernel can score
 * the rows where they are: copying ten thousand embeddings into fresh memory at the first query would cost
 * more than 50 queries (each fresh page is a fault). Tree loaders (tree-format.ts, storage) allocate with it.
 */
export function allocateRows(
  count: number,
  dim: number,
  minValues: number = KERNEL_MEMORY_MIN_VALUES,
): Float32Array {
  const wasm = wasmApi();
  if (!wasm || count === 0 || dim === 0 || count * dim < minValues) return new Float32Array(count * dim);
  const outAt = align16(dim * 8);
  const rowsAt = align16(outAt + count * 8);
  try {
    const memory = new wasm.Memory({ initial: Math.ceil((rowsAt + count * dim * 4) / PAGE) });
    rowsMemories.set(memory.buffer, { memory, outAt, rowsAt, count, dim });
    return new Float32Array(memory.buffer, rowsAt, count * dim);
  } catch {
    // Memory that cannot be had (a very large tree, a tight browser): a plain array, scored in JavaScript.
    return new Float32Array(count * dim);
  }
}

/** Whether `rows` are the `count × dim` rows of a memory `allocateRows` laid out for the kernel (scored in place). */
export function inKernelMemory(rows: Float32Array, count: number, dim: number): boolean {
  const place = rowsMemories.get(rows.buffer as ArrayBuffer);
  return !!place && place.rowsAt === rows.byteOffset && place.count === count && place.dim === dim;
}

/**
 * The kernel for `count` rows of `dim` float32s (`rows`, row-major). Rows from `allocateRows` are scored in
 * place; any others are first copied into kernel memory. Undefined where WebAssembly SIMD is missing or the
 * memory cannot be had (the caller then scores in JavaScript).
 */
export function createDotKernel(rows: Float32Array, count: number, dim: number): DotKernel | undefined {
  const wasm = wasmApi();
  if (!wasm || count === 0 || dim === 0) return undefined;
  let place = rowsMemories.get(rows.buffer as ArrayBuffer);
  if (!place || !inKernelMemory(rows, count, dim)) {
    const copy = allocateRows(count, dim, 0);
    place = rowsMemories.get(copy.buffer as ArrayBuffer);
    if (!place) return undefined;
    copy.set(rows.subarray(0, count * dim));
  }
  const { memory, outAt, rowsAt } = place;
  try {
    const instance = new wasm.Instance(compiled!, { env: { memory } });
    const buffer = (memory as { buffer: ArrayBuffer }).buffer;
    const query = new Float64Array(buffer, 0, dim);
    const scores = new Float64Array(buffer, outAt, count);
    const dots = instance.exports.dots as DotsExport;
    const norms = instance.exports.norms as NormsExport;
    return {
      dots(q, out) {
        query.set(q);
        dots(0, dim, rowsAt, count, outAt);
        out.set(scores);
      },
      norms(out) {
        norms(dim, rowsAt, count, outAt);
        out.set(scores);
      },
    };
  } catch {
    return undefined;
  }
}
