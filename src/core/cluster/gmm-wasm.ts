/**
 * The mixture's innermost loops in WebAssembly (kernels/gmm.ts): `componentLogDensities`,
 * `accumulateScatter` and their diagonal forms of gmm-kernels.ts, the same operations in the same order, so the same numbers bit for bit
 * (tests/core/cluster/gmm-wasm.test.ts), about twice as fast in V8. A workspace made for one data set
 * (`createWorkspace(n, dim, maxK, data)`) keeps that data and the arrays the loops read and write in the
 * kernel's memory; EM then calls the kernel for that data and JavaScript for any other.
 */
import { GMM_WASM } from './generated/gmm-wasm';
import { acquireKernel, KernelArrays } from './wasm';

interface GmmExports {
  componentLogDensities(
    data: number,
    n: number,
    dim: number,
    precs: number,
    po: number,
    shifts: number,
    so: number,
    norm: number,
    out: number,
    stride: number,
    column: number,
  ): void;
  diagonalLogDensities(
    data: number,
    n: number,
    dim: number,
    precs: number,
    po: number,
    shifts: number,
    so: number,
    norm: number,
    out: number,
    stride: number,
    column: number,
  ): void;
  accumulateDiagonalScatter(
    data: number,
    dim: number,
    members: number,
    count: number,
    resp: number,
    stride: number,
    column: number,
    means: number,
    mo: number,
    acc: number,
  ): void;
  accumulateScatter(
    data: number,
    dim: number,
    members: number,
    count: number,
    resp: number,
    stride: number,
    column: number,
    means: number,
    mo: number,
    acc: number,
    block: number,
  ): void;
}

/** The arrays of an EM workspace that the loops use, placed in kernel memory. */
export interface GmmKernelArrays {
  data: Float64Array;
  resp: Float64Array;
  precs: Float64Array;
  shifts: Float64Array;
  means: Float64Array;
  acc: Float64Array;
  members: Int32Array;
  block: Float64Array;
}

/** A workspace's kernel: its arrays in kernel memory, and the loops over them. */
export interface GmmKernel {
  /** The caller's data array this kernel holds a copy of (the loops run in WebAssembly only for it). */
  readonly source: Float64Array;
  readonly arrays: GmmKernelArrays;
  /**
   * `componentLogDensities` over the kernel's data into its `resp` (offsets as in gmm-kernels.ts), or
   * `diagonalLogDensities` (the same numbers) when the component's factor is `diagonal`.
   */
  logDensities(
    n: number,
    po: number,
    so: number,
    norm: number,
    stride: number,
    column: number,
    diagonal?: boolean,
  ): void;
  /** `accumulateScatter` of the kernel's data, members, resp, means, acc and block. */
  scatter(count: number, stride: number, column: number, mo: number): void;
  /** `accumulateDiagonalScatter` of the kernel's data, members, resp, means and acc. */
  diagonalScatter(count: number, stride: number, column: number, mo: number): void;
  /** Gives the kernel back: its arrays belong to the next workspace from now on. */
  release(): void;
}

/**
 * A kernel holding a copy of `data` (n × dim) and room for fits of up to `maxK` components, or undefined where
 * WebAssembly cannot run (the workspace then keeps plain arrays and EM runs in JavaScript).
 */
export function createGmmKernel(
  data: Float64Array,
  n: number,
  dim: number,
  maxK: number,
): GmmKernel | undefined {
  const packed = (dim * (dim + 1)) / 2;
  const f64 = 8;
  const lengths = [n * dim, n * maxK, maxK * packed, maxK * dim, maxK * dim, dim * dim, 8 * dim];
  const bytes = KernelArrays.bytes([...lengths.map((l) => l * f64), n * 4]);
  const kernel = acquireKernel<GmmExports>(GMM_WASM, bytes);
  if (!kernel) return undefined;
  const { exports } = kernel;
  const layout = new KernelArrays(kernel.memory, kernel.base);
  const [copy, dataAt] = layout.float64(n * dim);
  const [resp, respAt] = layout.float64(n * maxK);
  const [precs, precsAt] = layout.float64(maxK * packed);
  const [shifts, shiftsAt] = layout.float64(maxK * dim);
  const [means, meansAt] = layout.float64(maxK * dim);
  const [acc, accAt] = layout.float64(dim * dim);
  const [block, blockAt] = layout.float64(8 * dim);
  const [members, membersAt] = layout.int32(n);
  copy.set(data.subarray(0, n * dim));
  return {
    source: data,
    arrays: { data: copy, resp, precs, shifts, means, acc, members, block },
    logDensities(count, po, so, norm, stride, column, diagonal) {
      (diagonal ? exports.diagonalLogDensities : exports.componentLogDensities)(
        dataAt,
        count,
        dim,
        precsAt,
        po,
        shiftsAt,
        so,
        norm,
        respAt,
        stride,
        column,
      );
    },
    scatter(count, stride, column, mo) {
      exports.accumulateScatter(
        dataAt,
        dim,
        membersAt,
        count,
        respAt,
        stride,
        column,
        meansAt,
        mo,
        accAt,
        blockAt,
      );
    },
    diagonalScatter(count, stride, column, mo) {
      exports.accumulateDiagonalScatter(
        dataAt,
        dim,
        membersAt,
        count,
        respAt,
        stride,
        column,
        meansAt,
        mo,
        accAt,
      );
    },
    release: () => kernel.release(),
  };
}
