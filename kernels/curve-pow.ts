// The layout curve's power x^b, operation for operation src/core/cluster/curve-pow.ts's `curvePow` (its header
// says how it works and why): IEEE additions, multiplications and bit moves only, so the kernel and its
// JavaScript twin give the same bits in every engine. The tables are the caller's (`curvePowTable`).

const LN2: f64 = 0.6931471805599453;
const LOG_ENTRIES: i32 = 128;
const EXP_ENTRIES: i32 = 64;
const TWO54: f64 = 18014398509481984.0;
const EXP_LIMIT: f64 = 707;

/** x^b for x > 0 with the tables at `table` (the caller handles x ≤ 0). */
@inline
export function curvePow(x: f64, b: f64, table: usize): f64 {
  let bits = reinterpret<u64>(x);
  let e = <i32>((bits >> 52) & 0x7ff);
  if (e == 0) {
    bits = reinterpret<u64>(x * TWO54);
    e = <i32>((bits >> 52) & 0x7ff) - 54;
  }
  const i = <i32>((bits >> 45) & <u64>(LOG_ENTRIES - 1));
  const m = reinterpret<f64>((bits & 0x000fffffffffffff) | 0x3ff0000000000000);
  const r = m * load<f64>(table + (<usize>i << 3)) - 1;
  const r2 = r * r;
  const log1p = r - r2 * 0.5 + r2 * r * (1.0 / 3.0 - r * 0.25 + r2 * 0.2);
  const t = b * (<f64>(e - 1023) * LN2 + load<f64>(table + (<usize>(LOG_ENTRIES + i) << 3)) + log1p);
  if (t < -EXP_LIMIT) return 0;
  if (t > EXP_LIMIT) return Infinity;
  const k = Math.floor(t * (<f64>EXP_ENTRIES / LN2) + 0.5);
  const s = t - k * (LN2 / <f64>EXP_ENTRIES);
  const s2 = s * s;
  const p = 1 + s + s2 * (0.5 + s * (1.0 / 6.0)) + s2 * s2 * (1.0 / 24.0 + s * (1.0 / 120.0));
  const ki = <i64>k;
  const j = <i32>(ki & <i64>(EXP_ENTRIES - 1));
  const q = ki >> 6;
  const scaleBits = <u64>(q + 1023) << 52;
  return p * load<f64>(table + (<usize>(2 * LOG_ENTRIES + j) << 3)) * reinterpret<f64>(scaleBits);
}
