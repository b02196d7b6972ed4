/**
 * The layout curve's power x^b in IEEE additions, multiplications and bit moves only, so that the stable
 * layout's kernel (kernels/curve-pow.ts, its twin operation for operation) and its JavaScript epochs give the
 * same bits in every engine. `Math.pow` leaves its last bits to each engine (Node 20 and Chromium disagree on
 * some calls), and the kernel's own port of musl's was most of a layout sample's cost beside the distances:
 * 5 of a sample's 7 calls are the pushes', about a third of its time (docs/build-time.md).
 *
 * ln x = e·ln 2 + ln c + ln(1 + r), with x = 2^e·m, c the centre of m's 1/128 of [1, 2) and r = m/c − 1 (|r| <
 * 1/256, a series of 5 terms); then e^t = 2^q · 2^(j/64) · e^s, t = (64q + j)·ln 2/64 + s (|s| < ln 2/128, 5
 * terms). Relative error ~1e-14 where the layout uses it (squared distances 1e-12 … 1e6), against `Math.pow`.
 * The tables (`curvePowTable`) are made with the same basic operations, once.
 */

/** ln 2, the nearest double. */
const LN2 = 0.6931471805599453;
/** Entries of the logarithm's table (the top 7 bits of the mantissa). */
export const LOG_ENTRIES = 128;
/** Entries of the exponential's table (2^(j/64)). */
export const EXP_ENTRIES = 64;
/** 2⁵⁴, to bring a subnormal x into the normal range. */
const TWO54 = 18014398509481984;
/** |t| beyond which e^t is taken as 0 or infinite (2^±1021 keeps every step normal). */
const EXP_LIMIT = 707;
/** Terms of the series that fill the tables (far past double precision). */
const TABLE_TERMS = 40;

/**
 * The tables of `curvePow`, laid out as the kernel reads them: LOG_ENTRIES reciprocals 1/c, LOG_ENTRIES
 * logarithms ln c, EXP_ENTRIES powers 2^(j/64).
 */
export function curvePowTable(): Float64Array {
  const table = new Float64Array(2 * LOG_ENTRIES + EXP_ENTRIES);
  for (let i = 0; i < LOG_ENTRIES; i++) {
    const c = 1 + (i + 0.5) / LOG_ENTRIES;
    table[i] = 1 / c;
    // ln c = 2 atanh((c − 1)/(c + 1)), the series summed from its smallest term.
    const s = (c - 1) / (c + 1);
    let sum = 0;
    for (let n = TABLE_TERMS; n >= 0; n--) sum = sum * s * s + 1 / (2 * n + 1);
    table[LOG_ENTRIES + i] = 2 * s * sum;
  }
  for (let j = 0; j < EXP_ENTRIES; j++) {
    const u = (j / EXP_ENTRIES) * LN2;
    let sum = 0;
    for (let n = TABLE_TERMS; n >= 1; n--) sum = 1 + (sum * u) / n;
    table[2 * LOG_ENTRIES + j] = sum;
  }
  return table;
}

const scratch = new DataView(new ArrayBuffer(8));

/** x^b for x > 0 with `table` = `curvePowTable()` (the caller handles x ≤ 0). */
export function curvePow(x: number, b: number, table: Float64Array): number {
  scratch.setFloat64(0, x, true);
  let high = scratch.getUint32(4, true);
  let e = (high >>> 20) & 0x7ff;
  if (e === 0) {
    scratch.setFloat64(0, x * TWO54, true);
    high = scratch.getUint32(4, true);
    e = ((high >>> 20) & 0x7ff) - 54;
  }
  const i = (high >>> 13) & (LOG_ENTRIES - 1);
  // m in [1, 2): x's mantissa under a zero exponent.
  scratch.setUint32(4, (high & 0x000fffff) | 0x3ff00000, true);
  const m = scratch.getFloat64(0, true);
  const r = m * table[i] - 1;
  const r2 = r * r;
  const log1p = r - r2 * 0.5 + r2 * r * (1 / 3 - r * 0.25 + r2 * 0.2);
  const t = b * ((e - 1023) * LN2 + table[LOG_ENTRIES + i] + log1p);
  if (t < -EXP_LIMIT) return 0;
  if (t > EXP_LIMIT) return Infinity;
  const k = Math.floor(t * (EXP_ENTRIES / LN2) + 0.5);
  const s = t - k * (LN2 / EXP_ENTRIES);
  const s2 = s * s;
  const p = 1 + s + s2 * (0.5 + s * (1 / 6)) + s2 * s2 * (1 / 24 + s * (1 / 120));
  const j = k & (EXP_ENTRIES - 1);
  const q = (k - j) / EXP_ENTRIES;
  scratch.setUint32(4, (q + 1023) << 20, true);
  scratch.setUint32(0, 0, true);
  return p * table[2 * LOG_ENTRIES + j] * scratch.getFloat64(0, true);
}
