// The layout curve's power x^b for x > 0, operation for operation src/core/cluster/curve-pow.ts's `curvePow`
// (read it for the method): the caller lays that module's POW_TABLES out in memory at `tables`. Only +, −, ×,
// ÷, floor, table loads and bit moves, which IEEE 754 fixes exactly, so the kernel and every JavaScript engine
// give the same bits (Math.pow's last bits are each engine's own).

const LN2_HI: f64 = 0.6931471803691238;
const LN2_LO: f64 = 1.9082149292705877e-10;
const LN2: f64 = 0.6931471805599453;
const INV_LN2: f64 = 1.4426950408889634;
const TWO54: f64 = 18014398509481984.0;
const BITS: i32 = 7;
const N: i32 = 1 << BITS;
const LN2_N_HI: f64 = LN2_HI / <f64>N;
const LN2_N_LO: f64 = LN2_LO / <f64>N;
const N_INV_LN2: f64 = <f64>N * INV_LN2;

@inline
function table(tables: usize, index: i32): f64 {
  return load<f64>(tables + (<usize>index << 3));
}

/** x^b for a positive finite x; `tables` points at curve-pow.ts's POW_TABLES (3 × 128 f64). */
@inline
export function curvePow(x: f64, b: f64, tables: usize): f64 {
  let bits = reinterpret<u64>(x);
  let e = <i32>((bits >> 52) & 0x7ff);
  if (e == 0) {
    // Subnormal: scale into the normal range first (exact).
    bits = reinterpret<u64>(x * TWO54);
    e = <i32>((bits >> 52) & 0x7ff) - 54;
  }
  e -= 1023;
  const i = <i32>((bits >> (52 - BITS)) & <u64>(N - 1));
  const r = reinterpret<f64>((bits & 0x000fffffffffffff) | 0x3ff0000000000000) * table(tables, i) - 1.0;
  const lnx =
    <f64>e * LN2 +
    table(tables, N + i) +
    r * (1.0 + r * (-0.5 + r * (0.3333333333333333 + r * (-0.25 + r * 0.2))));
  const y = b * lnx;
  const k = Math.floor(y * N_INV_LN2 + 0.5);
  if (k < <f64>(-1022 * N)) return 0.0;
  if (k >= <f64>(1024 * N)) return Infinity;
  const t = y - k * LN2_N_HI - k * LN2_N_LO;
  const p = 1.0 + t * (1.0 + t * (0.5 + t * (0.16666666666666666 + t * 0.041666666666666664)));
  const kk = <i32>k;
  return p * table(tables, 2 * N + (kk & (N - 1))) * reinterpret<f64>(<u64>((kk >> BITS) + 1023) << 52);
}
