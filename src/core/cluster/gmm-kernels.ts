/**
 * The two innermost loops of EM (gmm-em.ts), on flat row-major Float64Array data. Both work on blocks of four
 * points and two matrix rows at a time, so every value loaded from memory feeds several multiply-adds: this is
 * where a BIC sweep spends most of its time.
 */

/**
 * Squared Mahalanobis distances ‖L⁻¹x − L⁻¹μ‖² of points `data` (n × dim) to one component, given its inverse
 * Cholesky factor `precs` (packed lower triangle, rows contiguous, from offset `po`) and `shifts` = L⁻¹μ (from
 * offset `so`). Writes `norm − ½ distance` to out[i·stride + column].
 *
 * Forming L⁻¹x − L⁻¹μ rather than L⁻¹(x − μ) saves a subtraction per coordinate; the data are centred, so
 * both terms stay of the data's magnitude and the difference loses nothing that matters.
 */
export function componentLogDensities(
  data: Float64Array,
  n: number,
  dim: number,
  precs: Float64Array,
  po: number,
  shifts: Float64Array,
  so: number,
  norm: number,
  out: Float64Array,
  stride: number,
  column: number,
): void {
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x0 = i * dim;
    const x1 = x0 + dim;
    const x2 = x1 + dim;
    const x3 = x2 + dim;
    let m0 = 0;
    let m1 = 0;
    let m2 = 0;
    let m3 = 0;
    let r = 0;
    let p = po;
    // Rows r and r + 1 together: they share the loads of x₀ … x_r.
    for (; r + 1 < dim; r += 2) {
      const q = p + r + 1;
      const ba = shifts[so + r];
      const bb = shifts[so + r + 1];
      let a0 = -ba;
      let a1 = -ba;
      let a2 = -ba;
      let a3 = -ba;
      let b0 = -bb;
      let b1 = -bb;
      let b2 = -bb;
      let b3 = -bb;
      for (let c = 0; c <= r; c++) {
        const la = precs[p + c];
        const lb = precs[q + c];
        const y0 = data[x0 + c];
        const y1 = data[x1 + c];
        const y2 = data[x2 + c];
        const y3 = data[x3 + c];
        a0 += la * y0;
        a1 += la * y1;
        a2 += la * y2;
        a3 += la * y3;
        b0 += lb * y0;
        b1 += lb * y1;
        b2 += lb * y2;
        b3 += lb * y3;
      }
      const last = r + 1;
      const lb = precs[q + last];
      b0 += lb * data[x0 + last];
      b1 += lb * data[x1 + last];
      b2 += lb * data[x2 + last];
      b3 += lb * data[x3 + last];
      m0 += a0 * a0 + b0 * b0;
      m1 += a1 * a1 + b1 * b1;
      m2 += a2 * a2 + b2 * b2;
      m3 += a3 * a3 + b3 * b3;
      p = q + last + 1;
    }
    if (r < dim) {
      const b = shifts[so + r];
      let s0 = -b;
      let s1 = -b;
      let s2 = -b;
      let s3 = -b;
      for (let c = 0; c <= r; c++) {
        const l = precs[p + c];
        s0 += l * data[x0 + c];
        s1 += l * data[x1 + c];
        s2 += l * data[x2 + c];
        s3 += l * data[x3 + c];
      }
      m0 += s0 * s0;
      m1 += s1 * s1;
      m2 += s2 * s2;
      m3 += s3 * s3;
    }
    out[i * stride + column] = norm - 0.5 * m0;
    out[(i + 1) * stride + column] = norm - 0.5 * m1;
    out[(i + 2) * stride + column] = norm - 0.5 * m2;
    out[(i + 3) * stride + column] = norm - 0.5 * m3;
  }
  for (; i < n; i++) {
    const x0 = i * dim;
    let m0 = 0;
    let p = po;
    for (let r = 0; r < dim; r++) {
      let s0 = -shifts[so + r];
      for (let c = 0; c <= r; c++) s0 += precs[p++] * data[x0 + c];
      m0 += s0 * s0;
    }
    out[i * stride + column] = norm - 0.5 * m0;
  }
}

/**
 * Adds Σ r (x − μ)(x − μ)ᵀ over the points `members[0 … count)` to the upper triangle of `acc` (dim × dim),
 * with r = resp[i·stride + column] and μ = means[mo …]. `block` is 8 × dim scratch: four centred rows, then the
 * same rows times their responsibilities. Four points and two rows of `acc` per pass, so each accumulator is
 * loaded and stored once per eight products.
 */
export function accumulateScatter(
  data: Float64Array,
  dim: number,
  members: Int32Array,
  count: number,
  resp: Float64Array,
  stride: number,
  column: number,
  means: Float64Array,
  mo: number,
  acc: Float64Array,
  block: Float64Array,
): void {
  const d1 = dim;
  const d2 = 2 * dim;
  const d3 = 3 * dim;
  const w = 4 * dim;
  let m = 0;
  for (; m + 3 < count; m += 4) {
    for (let t = 0; t < 4; t++) {
      const i = members[m + t];
      const r = resp[i * stride + column];
      const xo = i * dim;
      const bo = t * dim;
      for (let c = 0; c < dim; c++) {
        const v = data[xo + c] - means[mo + c];
        block[bo + c] = v;
        block[w + bo + c] = r * v;
      }
    }
    let a = 0;
    for (; a + 1 < dim; a += 2) {
      const u0 = block[w + a];
      const u1 = block[w + d1 + a];
      const u2 = block[w + d2 + a];
      const u3 = block[w + d3 + a];
      const v0 = block[w + a + 1];
      const v1 = block[w + d1 + a + 1];
      const v2 = block[w + d2 + a + 1];
      const v3 = block[w + d3 + a + 1];
      const rowA = a * dim;
      const rowB = rowA + dim;
      acc[rowA + a] += u0 * block[a] + u1 * block[d1 + a] + u2 * block[d2 + a] + u3 * block[d3 + a];
      for (let b = a + 1; b < dim; b++) {
        const e0 = block[b];
        const e1 = block[d1 + b];
        const e2 = block[d2 + b];
        const e3 = block[d3 + b];
        acc[rowA + b] += u0 * e0 + u1 * e1 + u2 * e2 + u3 * e3;
        acc[rowB + b] += v0 * e0 + v1 * e1 + v2 * e2 + v3 * e3;
      }
    }
    if (a < dim) {
      const row = a * dim;
      acc[row + a] +=
        block[w + a] * block[a] +
        block[w + d1 + a] * block[d1 + a] +
        block[w + d2 + a] * block[d2 + a] +
        block[w + d3 + a] * block[d3 + a];
    }
  }
  for (; m < count; m++) {
    const i = members[m];
    const r = resp[i * stride + column];
    const xo = i * dim;
    for (let c = 0; c < dim; c++) block[c] = data[xo + c] - means[mo + c];
    for (let a = 0; a < dim; a++) {
      const u = r * block[a];
      const row = a * dim;
      for (let b = a; b < dim; b++) acc[row + b] += u * block[b];
    }
  }
}

/**
 * `componentLogDensities` for a component whose inverse factor is diagonal (its off-diagonal entries exactly 0:
 * the 'diag' and 'spherical' families): each coordinate of L⁻¹x − L⁻¹μ is one product and one subtraction, d
 * multiply-adds a point instead of d(d + 1)/2. The same numbers bit for bit: the full loop's extra terms are
 * products with ±0, which leave a finite sum unchanged, and the squares are summed in the full loop's order
 * (rows in pairs for blocks of four points, one by one for the rest).
 */
export function diagonalLogDensities(
  data: Float64Array,
  n: number,
  dim: number,
  precs: Float64Array,
  po: number,
  shifts: Float64Array,
  so: number,
  norm: number,
  out: Float64Array,
  stride: number,
  column: number,
): void {
  const blocked = n - (n % 4);
  for (let i = 0; i < blocked; i++) {
    const x = i * dim;
    let m = 0;
    let r = 0;
    let p = po;
    for (; r + 1 < dim; r += 2) {
      const q = p + r + 1;
      const a = precs[p + r] * data[x + r] - shifts[so + r];
      const b = precs[q + r + 1] * data[x + r + 1] - shifts[so + r + 1];
      m += a * a + b * b;
      p = q + r + 2;
    }
    if (r < dim) {
      const s = precs[p + r] * data[x + r] - shifts[so + r];
      m += s * s;
    }
    out[i * stride + column] = norm - 0.5 * m;
  }
  for (let i = blocked; i < n; i++) {
    const x = i * dim;
    let m = 0;
    for (let r = 0, p = po; r < dim; p += ++r) {
      const s = precs[p + r] * data[x + r] - shifts[so + r];
      m += s * s;
    }
    out[i * stride + column] = norm - 0.5 * m;
  }
}

/**
 * The diagonal of `accumulateScatter` alone (what the 'diag' and 'spherical' families keep of a component's
 * scatter), added to acc[a·dim + a]: the same numbers bit for bit as that loop's diagonal, four points summed
 * in its order, the rest one by one.
 */
export function accumulateDiagonalScatter(
  data: Float64Array,
  dim: number,
  members: Int32Array,
  count: number,
  resp: Float64Array,
  stride: number,
  column: number,
  means: Float64Array,
  mo: number,
  acc: Float64Array,
): void {
  const blocked = count - (count % 4);
  for (let m = 0; m < blocked; m += 4) {
    const i0 = members[m] * dim;
    const i1 = members[m + 1] * dim;
    const i2 = members[m + 2] * dim;
    const i3 = members[m + 3] * dim;
    const r0 = resp[members[m] * stride + column];
    const r1 = resp[members[m + 1] * stride + column];
    const r2 = resp[members[m + 2] * stride + column];
    const r3 = resp[members[m + 3] * stride + column];
    for (let a = 0; a < dim; a++) {
      const mean = means[mo + a];
      const v0 = data[i0 + a] - mean;
      const v1 = data[i1 + a] - mean;
      const v2 = data[i2 + a] - mean;
      const v3 = data[i3 + a] - mean;
      acc[a * dim + a] += r0 * v0 * v0 + r1 * v1 * v1 + r2 * v2 * v2 + r3 * v3 * v3;
    }
  }
  for (let m = blocked; m < count; m++) {
    const xo = members[m] * dim;
    const r = resp[members[m] * stride + column];
    for (let a = 0; a < dim; a++) {
      const v = data[xo + a] - means[mo + a];
      acc[a * dim + a] += r * v * v;
    }
  }
}
