// AssemblyScript source of the Gaussian mixture's two innermost loops (src/core/cluster/gmm-kernels.ts has their
// JavaScript twins and the meaning of every argument; `npm run kernels` compiles this file). The same
// operations in the same order on the same float64 values, so the same numbers bit for bit: points in blocks
// of four, matrix rows two at a time, exactly as the JavaScript loops go.
//
// Memory is the caller's (imported). Pointers are byte addresses at or above `heapBase()`; `po`, `so`, `mo`
// and the like are element offsets into those arrays, as in JavaScript.

/** Where the caller's arrays may start. */
export function heapBase(): usize {
  return __heap_base;
}

@inline
function f64At(base: usize, index: i32): f64 {
  return load<f64>(base + (<usize>index << 3));
}

@inline
function setF64(base: usize, index: i32, value: f64): void {
  store<f64>(base + (<usize>index << 3), value);
}

/** See componentLogDensities in src/core/cluster/gmm-kernels.ts. */
export function componentLogDensities(
  data: usize,
  n: i32,
  dim: i32,
  precs: usize,
  po: i32,
  shifts: usize,
  so: i32,
  norm: f64,
  out: usize,
  stride: i32,
  column: i32,
): void {
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x0 = i * dim;
    const x1 = x0 + dim;
    const x2 = x1 + dim;
    const x3 = x2 + dim;
    let m0: f64 = 0;
    let m1: f64 = 0;
    let m2: f64 = 0;
    let m3: f64 = 0;
    let r = 0;
    let p = po;
    for (; r + 1 < dim; r += 2) {
      const q = p + r + 1;
      const ba = f64At(shifts, so + r);
      const bb = f64At(shifts, so + r + 1);
      let a0 = -ba;
      let a1 = -ba;
      let a2 = -ba;
      let a3 = -ba;
      let b0 = -bb;
      let b1 = -bb;
      let b2 = -bb;
      let b3 = -bb;
      for (let c = 0; c <= r; c++) {
        const la = f64At(precs, p + c);
        const lb = f64At(precs, q + c);
        const y0 = f64At(data, x0 + c);
        const y1 = f64At(data, x1 + c);
        const y2 = f64At(data, x2 + c);
        const y3 = f64At(data, x3 + c);
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
      const lb = f64At(precs, q + last);
      b0 += lb * f64At(data, x0 + last);
      b1 += lb * f64At(data, x1 + last);
      b2 += lb * f64At(data, x2 + last);
      b3 += lb * f64At(data, x3 + last);
      m0 += a0 * a0 + b0 * b0;
      m1 += a1 * a1 + b1 * b1;
      m2 += a2 * a2 + b2 * b2;
      m3 += a3 * a3 + b3 * b3;
      p = q + last + 1;
    }
    if (r < dim) {
      const b = f64At(shifts, so + r);
      let s0 = -b;
      let s1 = -b;
      let s2 = -b;
      let s3 = -b;
      for (let c = 0; c <= r; c++) {
        const l = f64At(precs, p + c);
        s0 += l * f64At(data, x0 + c);
        s1 += l * f64At(data, x1 + c);
        s2 += l * f64At(data, x2 + c);
        s3 += l * f64At(data, x3 + c);
      }
      m0 += s0 * s0;
      m1 += s1 * s1;
      m2 += s2 * s2;
      m3 += s3 * s3;
    }
    setF64(out, i * stride + column, norm - 0.5 * m0);
    setF64(out, (i + 1) * stride + column, norm - 0.5 * m1);
    setF64(out, (i + 2) * stride + column, norm - 0.5 * m2);
    setF64(out, (i + 3) * stride + column, norm - 0.5 * m3);
  }
  for (; i < n; i++) {
    const x0 = i * dim;
    let m0: f64 = 0;
    let p = po;
    for (let r = 0; r < dim; r++) {
      let s0 = -f64At(shifts, so + r);
      for (let c = 0; c <= r; c++) s0 += f64At(precs, p++) * f64At(data, x0 + c);
      m0 += s0 * s0;
    }
    setF64(out, i * stride + column, norm - 0.5 * m0);
  }
}

/** See accumulateScatter in src/core/cluster/gmm-kernels.ts. */
export function accumulateScatter(
  data: usize,
  dim: i32,
  members: usize,
  count: i32,
  resp: usize,
  stride: i32,
  column: i32,
  means: usize,
  mo: i32,
  acc: usize,
  block: usize,
): void {
  const d1 = dim;
  const d2 = 2 * dim;
  const d3 = 3 * dim;
  const w = 4 * dim;
  let m = 0;
  for (; m + 3 < count; m += 4) {
    for (let t = 0; t < 4; t++) {
      const i = load<i32>(members + (<usize>(m + t) << 2));
      const r = f64At(resp, i * stride + column);
      const xo = i * dim;
      const bo = t * dim;
      for (let c = 0; c < dim; c++) {
        const v = f64At(data, xo + c) - f64At(means, mo + c);
        setF64(block, bo + c, v);
        setF64(block, w + bo + c, r * v);
      }
    }
    let a = 0;
    for (; a + 1 < dim; a += 2) {
      const u0 = f64At(block, w + a);
      const u1 = f64At(block, w + d1 + a);
      const u2 = f64At(block, w + d2 + a);
      const u3 = f64At(block, w + d3 + a);
      const v0 = f64At(block, w + a + 1);
      const v1 = f64At(block, w + d1 + a + 1);
      const v2 = f64At(block, w + d2 + a + 1);
      const v3 = f64At(block, w + d3 + a + 1);
      const rowA = a * dim;
      const rowB = rowA + dim;
      setF64(
        acc,
        rowA + a,
        f64At(acc, rowA + a) +
          (u0 * f64At(block, a) + u1 * f64At(block, d1 + a) + u2 * f64At(block, d2 + a) + u3 * f64At(block, d3 + a)),
      );
      for (let b = a + 1; b < dim; b++) {
        const e0 = f64At(block, b);
        const e1 = f64At(block, d1 + b);
        const e2 = f64At(block, d2 + b);
        const e3 = f64At(block, d3 + b);
        setF64(acc, rowA + b, f64At(acc, rowA + b) + (u0 * e0 + u1 * e1 + u2 * e2 + u3 * e3));
        setF64(acc, rowB + b, f64At(acc, rowB + b) + (v0 * e0 + v1 * e1 + v2 * e2 + v3 * e3));
      }
    }
    if (a < dim) {
      const row = a * dim;
      setF64(
        acc,
        row + a,
        f64At(acc, row + a) +
          (f64At(block, w + a) * f64At(block, a) +
            f64At(block, w + d1 + a) * f64At(block, d1 + a) +
            f64At(block, w + d2 + a) * f64At(block, d2 + a) +
            f64At(block, w + d3 + a) * f64At(block, d3 + a)),
      );
    }
  }
  for (; m < count; m++) {
    const i = load<i32>(members + (<usize>m << 2));
    const r = f64At(resp, i * stride + column);
    const xo = i * dim;
    for (let c = 0; c < dim; c++) setF64(block, c, f64At(data, xo + c) - f64At(means, mo + c));
    for (let a = 0; a < dim; a++) {
      const u = r * f64At(block, a);
      const row = a * dim;
      for (let b = a; b < dim; b++) setF64(acc, row + b, f64At(acc, row + b) + u * f64At(block, b));
    }
  }
}

/** See diagonalLogDensities in src/core/cluster/gmm-kernels.ts. */
export function diagonalLogDensities(
  data: usize,
  n: i32,
  dim: i32,
  precs: usize,
  po: i32,
  shifts: usize,
  so: i32,
  norm: f64,
  out: usize,
  stride: i32,
  column: i32,
): void {
  const blocked = n - (n % 4);
  for (let i = 0; i < blocked; i++) {
    const x = i * dim;
    let m: f64 = 0;
    let r = 0;
    let p = po;
    for (; r + 1 < dim; r += 2) {
      const q = p + r + 1;
      const a = f64At(precs, p + r) * f64At(data, x + r) - f64At(shifts, so + r);
      const b = f64At(precs, q + r + 1) * f64At(data, x + r + 1) - f64At(shifts, so + r + 1);
      m += a * a + b * b;
      p = q + r + 2;
    }
    if (r < dim) {
      const s = f64At(precs, p + r) * f64At(data, x + r) - f64At(shifts, so + r);
      m += s * s;
    }
    setF64(out, i * stride + column, norm - 0.5 * m);
  }
  for (let i = blocked; i < n; i++) {
    const x = i * dim;
    let m: f64 = 0;
    let p = po;
    for (let r = 0; r < dim; r++) {
      const s = f64At(precs, p + r) * f64At(data, x + r) - f64At(shifts, so + r);
      m += s * s;
      p += r + 1;
    }
    setF64(out, i * stride + column, norm - 0.5 * m);
  }
}

/** See accumulateDiagonalScatter in src/core/cluster/gmm-kernels.ts. */
export function accumulateDiagonalScatter(
  data: usize,
  dim: i32,
  members: usize,
  count: i32,
  resp: usize,
  stride: i32,
  column: i32,
  means: usize,
  mo: i32,
  acc: usize,
): void {
  const blocked = count - (count % 4);
  for (let m = 0; m < blocked; m += 4) {
    const j0 = load<i32>(members + (<usize>m << 2));
    const j1 = load<i32>(members + (<usize>(m + 1) << 2));
    const j2 = load<i32>(members + (<usize>(m + 2) << 2));
    const j3 = load<i32>(members + (<usize>(m + 3) << 2));
    const r0 = f64At(resp, j0 * stride + column);
    const r1 = f64At(resp, j1 * stride + column);
    const r2 = f64At(resp, j2 * stride + column);
    const r3 = f64At(resp, j3 * stride + column);
    const i0 = j0 * dim;
    const i1 = j1 * dim;
    const i2 = j2 * dim;
    const i3 = j3 * dim;
    for (let a = 0; a < dim; a++) {
      const mean = f64At(means, mo + a);
      const v0 = f64At(data, i0 + a) - mean;
      const v1 = f64At(data, i1 + a) - mean;
      const v2 = f64At(data, i2 + a) - mean;
      const v3 = f64At(data, i3 + a) - mean;
      const at = a * dim + a;
      setF64(acc, at, f64At(acc, at) + (r0 * v0 * v0 + r1 * v1 * v1 + r2 * v2 * v2 + r3 * v3 * v3));
    }
  }
  for (let m = blocked; m < count; m++) {
    const j = load<i32>(members + (<usize>m << 2));
    const r = f64At(resp, j * stride + column);
    const xo = j * dim;
    for (let a = 0; a < dim; a++) {
      const v = f64At(data, xo + a) - f64At(means, mo + a);
      const at = a * dim + a;
      setF64(acc, at, f64At(acc, at) + r * v * v);
    }
  }
}
