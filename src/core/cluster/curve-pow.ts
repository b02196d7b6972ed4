/**
 * The UMAP layout curve's power x^b (kernels/curve-pow.ts is its WebAssembly twin, operation for operation):
 * ln x from the exponent and an atanh series of the mantissa, then exp by range reduction and a degree-10
 * Taylor polynomial. It uses only +, −, ×, ÷, floor and bit moves, which IEEE 754 fixes exactly, so every
 * JavaScript engine and the kernel give the same bits — `Math.pow`'s last bits are each engine's own, which made
 * the layout kernel and its JavaScript twin part ways on the real curve — and the kernel's is about 4× faster
 * than musl's `pow` it replaced (docs/clustering.md, "Kernels"). Relative error below 1e-12.
 */

const LN2_HI = 0.6931471803691238;
const LN2_LO = 1.9082149292705877e-10;
const LN2 = 0.6931471805599453;
const INV_LN2 = 1.4426950408889634;
const SQRT2 = 1.4142135623730951;
const TWO54 = 18014398509481984.0;

/** Scratch for moving a double's bits (little-endian, whatever the platform). */
const view = new DataView(new ArrayBuffer(8));

/** The double whose high and low 32-bit words are `hi` and `lo`. */
function fromWords(hi: number, lo: number): number {
  view.setUint32(4, hi >>> 0, true);
  view.setUint32(0, lo >>> 0, true);
  return view.getFloat64(0, true);
}

/**
 * ln x for a positive finite x (x ≤ 0 is the caller's to handle), to 1e-13 relative, with the same bits in every
 * engine: the exponent times ln 2 plus an atanh series of the mantissa taken into [√½, √2).
 */
export function curveLog(x: number): number {
  view.setFloat64(0, x, true);
  let hi = view.getUint32(4, true);
  let lo = view.getUint32(0, true);
  let e = (hi >>> 20) & 0x7ff;
  if (e === 0) {
    // Subnormal: scale into the normal range first (exact).
    view.setFloat64(0, x * TWO54, true);
    hi = view.getUint32(4, true);
    lo = view.getUint32(0, true);
    e = ((hi >>> 20) & 0x7ff) - 54;
  }
  e -= 1023;
  let m = fromWords((hi & 0x000fffff) | 0x3ff00000, lo);
  if (m > SQRT2) {
    m *= 0.5;
    e += 1;
  }
  const s = (m - 1.0) / (m + 1.0);
  const s2 = s * s;
  const series =
    1.0 +
    s2 *
      (0.3333333333333333 +
        s2 *
          (0.2 +
            s2 *
              (0.14285714285714285 +
                s2 * (0.1111111111111111 + s2 * (0.09090909090909091 + s2 * 0.07692307692307693)))));
  return e * LN2 + 2.0 * s * series;
}

/** e^r by a degree-10 Taylor polynomial after range reduction by ln 2 (what the tables are made with). */
function seriesExp(y: number): number {
  const k = Math.floor(y * INV_LN2 + 0.5);
  const r = y - k * LN2_HI - k * LN2_LO;
  const p =
    1.0 +
    r *
      (1.0 +
        r *
          (0.5 +
            r *
              (0.16666666666666666 +
                r *
                  (0.041666666666666664 +
                    r *
                      (0.008333333333333333 +
                        r *
                          (0.001388888888888889 +
                            r *
                              (0.0001984126984126984 +
                                r *
                                  (0.0000248015873015873 +
                                    r * (0.0000027557319223985893 + r * 2.755731922398589e-7)))))))));
  return p * fromWords((k + 1023) << 20, 0);
}

/** Entries of each table: the top POW_TABLE_BITS bits of the mantissa (ln) or of the fraction of k/N (exp). */
export const POW_TABLE_BITS = 7;
const N = 1 << POW_TABLE_BITS;

/**
 * The tables `curvePow` reads, in one array (the kernel gets a copy): 1/cᵢ and −ln(1/cᵢ) for the mantissa's
 * intervals cᵢ = 1 + (i + ½)/N, then 2^(j/N). Made with the series above, so every engine makes the same bits.
 */
export const POW_TABLES: Float64Array = (() => {
  const tables = new Float64Array(3 * N);
  for (let i = 0; i < N; i++) {
    const inverse = 1 / (1 + (i + 0.5) / N);
    tables[i] = inverse;
    tables[N + i] = -curveLog(inverse);
    tables[2 * N + i] = seriesExp((i * LN2) / N);
  }
  return tables;
})();

const LN2_N_HI = LN2_HI / N;
const LN2_N_LO = LN2_LO / N;
const N_INV_LN2 = N * INV_LN2;

/**
 * x^b for a positive finite x (x ≤ 0 is the caller's to handle): what `Math.pow(x, b)` computes, to 1e-13
 * relative, with the same bits in every engine (kernels/curve-pow.ts is its twin). ln x = e·ln 2 − ln(1/cᵢ) +
 * ln(1 + r), r = m/cᵢ − 1 of at most 1/(2N), by a degree-5 series; then e^y = 2^(k/N) · e^r', k = round(yN/ln 2),
 * |r'| ≤ ln 2/(2N), by a degree-4 polynomial — the tabled method of fast libms, with short polynomials.
 */
export function curvePow(x: number, b: number): number {
  view.setFloat64(0, x, true);
  let hi = view.getUint32(4, true);
  let lo = view.getUint32(0, true);
  let e = (hi >>> 20) & 0x7ff;
  if (e === 0) {
    // Subnormal: scale into the normal range first (exact).
    view.setFloat64(0, x * TWO54, true);
    hi = view.getUint32(4, true);
    lo = view.getUint32(0, true);
    e = ((hi >>> 20) & 0x7ff) - 54;
  }
  e -= 1023;
  const i = (hi >>> (20 - POW_TABLE_BITS)) & (N - 1);
  const r = fromWords((hi & 0x000fffff) | 0x3ff00000, lo) * POW_TABLES[i] - 1.0;
  const lnx =
    e * LN2 + POW_TABLES[N + i] + r * (1.0 + r * (-0.5 + r * (0.3333333333333333 + r * (-0.25 + r * 0.2))));
  const y = b * lnx;
  const k = Math.floor(y * N_INV_LN2 + 0.5);
  if (k < -1022 * N) return 0.0;
  if (k >= 1024 * N) return Infinity;
  const t = y - k * LN2_N_HI - k * LN2_N_LO;
  const p = 1.0 + t * (1.0 + t * (0.5 + t * (0.16666666666666666 + t * 0.041666666666666664)));
  const kk = k | 0;
  return p * POW_TABLES[2 * N + (kk & (N - 1))] * fromWords(((kk >> POW_TABLE_BITS) + 1023) << 20, 0);
}
