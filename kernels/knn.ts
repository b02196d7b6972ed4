// AssemblyScript source of the k-NN scan kernel (src/core/cluster/knn.ts loads it; `npm run kernels` compiles it).
// The dot products of query rows with every row of a matrix of float32 unit vectors, with exactly the
// arithmetic of knn.ts's JavaScript scan: each product in float64, four running sums over every fourth
// coordinate, the leftover coordinates added to the first, then (s0 + s1) + (s2 + s3). Four query rows share
// each load of a row (the scan is bound by reading the matrix, not by arithmetic).
//
// Memory is the caller's (imported). Pointers are byte addresses at or above `heapBase()`.

/** Where the caller's arrays may start. */
export function heapBase(): usize {
  return __heap_base;
}

@inline
function rowAt(matrix: usize, row: i32, dim: i32): usize {
  return matrix + ((<usize>row * <usize>dim) << 2);
}

/** The leftover coordinates (dim mod 4) of one product, added to s0 in order, then the sums combined. */
@inline
function finish(acc01: v128, acc23: v128, q: usize, r: usize, whole: i32, dim: i32): f64 {
  let s0 = f64x2.extract_lane(acc01, 0);
  for (let t = whole; t < dim; t++) {
    s0 += <f64>load<f32>(q + (<usize>t << 2)) * <f64>load<f32>(r + (<usize>t << 2));
  }
  return s0 + f64x2.extract_lane(acc01, 1) + (f64x2.extract_lane(acc23, 0) + f64x2.extract_lane(acc23, 1));
}

/** (x₀, x₁, x₂, x₃) of a query as two float64 pairs, multiplied by the row's pairs and added to the sums. */
@inline
function accumulate(acc: v128, query: v128, row: v128): v128 {
  return f64x2.add(acc, f64x2.mul(query, row));
}

/**
 * out[q · n + j] = row (first + q) · row j for q < count (1 … 4) and every j < n.
 * @param matrix n × dim float32 rows.
 * @param out count × n float64.
 */
export function dots(matrix: usize, n: i32, dim: i32, first: i32, count: i32, out: usize): void {
  const whole = dim & ~3;
  const q0 = rowAt(matrix, first, dim);
  const q1 = rowAt(matrix, first + min(1, count - 1), dim);
  const q2 = rowAt(matrix, first + min(2, count - 1), dim);
  const q3 = rowAt(matrix, first + min(3, count - 1), dim);
  const stride = <usize>n << 3;
  for (let j = 0; j < n; j++) {
    const r = rowAt(matrix, j, dim);
    let a01 = f64x2.splat(0);
    let a23 = f64x2.splat(0);
    let b01 = f64x2.splat(0);
    let b23 = f64x2.splat(0);
    let c01 = f64x2.splat(0);
    let c23 = f64x2.splat(0);
    let d01 = f64x2.splat(0);
    let d23 = f64x2.splat(0);
    for (let t = 0; t < whole; t += 4) {
      const at = <usize>t << 2;
      const row = v128.load(r + at);
      const rLow = f64x2.promote_low_f32x4(row);
      const rHigh = f64x2.promote_low_f32x4(i32x4.shuffle(row, row, 2, 3, 0, 1));
      const x0 = v128.load(q0 + at);
      a01 = accumulate(a01, f64x2.promote_low_f32x4(x0), rLow);
      a23 = accumulate(a23, f64x2.promote_low_f32x4(i32x4.shuffle(x0, x0, 2, 3, 0, 1)), rHigh);
      const x1 = v128.load(q1 + at);
      b01 = accumulate(b01, f64x2.promote_low_f32x4(x1), rLow);
      b23 = accumulate(b23, f64x2.promote_low_f32x4(i32x4.shuffle(x1, x1, 2, 3, 0, 1)), rHigh);
      const x2 = v128.load(q2 + at);
      c01 = accumulate(c01, f64x2.promote_low_f32x4(x2), rLow);
      c23 = accumulate(c23, f64x2.promote_low_f32x4(i32x4.shuffle(x2, x2, 2, 3, 0, 1)), rHigh);
      const x3 = v128.load(q3 + at);
      d01 = accumulate(d01, f64x2.promote_low_f32x4(x3), rLow);
      d23 = accumulate(d23, f64x2.promote_low_f32x4(i32x4.shuffle(x3, x3, 2, 3, 0, 1)), rHigh);
    }
    const o = out + (<usize>j << 3);
    store<f64>(o, finish(a01, a23, q0, r, whole, dim));
    if (count > 1) store<f64>(o + stride, finish(b01, b23, q1, r, whole, dim));
    if (count > 2) store<f64>(o + 2 * stride, finish(c01, c23, q2, r, whole, dim));
    if (count > 3) store<f64>(o + 3 * stride, finish(d01, d23, q3, r, whole, dim));
  }
}
