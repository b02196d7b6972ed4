/**
 * The leading principal components of a layer's vectors, for the global step of clustering (cluster.ts): rows
 * centred on their mean, projected on the `components` leading principal directions and each projection scaled
 * to unit length. Isotropic noise in the vectors keeps only its share in the kept directions, while the centred
 * leading directions carry the variance that tells the nodes apart (docs/clustering.md, "The global step on 50
 * principal components").
 *
 * Written in flat Float64Array loops with an eigensolver of our own (Householder tridiagonalisation, then the
 * implicit QL iteration with Wilkinson shifts) so that it is fast (ml-matrix's SVD took 40 s at 963 × 768) and
 * gives the same bits in every engine: it uses only + − × ÷ and Math.sqrt, which IEEE 754 rounds exactly, never
 * Math.hypot, Math.pow or Math.exp, whose rounding engines may differ on.
 *
 * Eigenvector signs are arbitrary (an eigenvector times −1 is one too); the sign chosen here is deterministic
 * but has no meaning, and it does not matter to the global step, which compares projections by cosine
 * distance: flipping a direction flips that coordinate in every row and leaves every cosine unchanged.
 */

/** Largest number of QL iterations spent on one eigenvalue before giving up (a few suffice in practice). */
const MAX_QL_ITERATIONS = 60;

/**
 * Rows `rows` (n × dim, row-major) centred, projected on their `components` leading principal directions and
 * each projection scaled to unit length (a zero projection stays zero); n × components, row-major.
 *
 * Works on the dim × dim covariance when n ≥ dim, or on the n × n Gram matrix of the centred rows when n < dim
 * (the projections are then the Gram's eigenvectors times √λ): the smaller of the two, about
 * n · min(n, dim)² / 2 multiply-adds to form it and min(n, dim)³ to tridiagonalise it.
 *
 * @param rows the vectors, row-major.
 * @param n number of rows.
 * @param dim length of each row.
 * @param components number of leading directions kept; at most min(n, dim).
 * @throws RangeError when the sizes do not fit.
 */
export function principalProjection(
  rows: Float32Array,
  n: number,
  dim: number,
  components: number,
): Float32Array {
  if (!Number.isInteger(n) || !Number.isInteger(dim) || n < 1 || dim < 1 || rows.length < n * dim) {
    throw new RangeError(`principalProjection: ${rows.length} values cannot hold ${n} rows of ${dim}.`);
  }
  if (!Number.isInteger(components) || components < 1 || components > Math.min(n, dim)) {
    throw new RangeError(
      `principalProjection: ${components} components asked of ${n} rows of ${dim} (at most ${Math.min(n, dim)}).`,
    );
  }
  const centred = centre(rows, n, dim);
  const out = new Float64Array(n * components);
  if (n >= dim) {
    const { vectors } = leadingEigen(covariance(centred, n, dim), dim, components);
    for (let i = 0; i < n; i++) {
      const row = i * dim;
      for (let j = 0; j < components; j++) {
        let s = 0;
        for (let t = 0; t < dim; t++) s += centred[row + t] * vectors[j * dim + t];
        out[i * components + j] = s;
      }
    }
  } else {
    const { values, vectors } = leadingEigen(gram(centred, n, dim), n, components);
    for (let j = 0; j < components; j++) {
      const scale = values[j] > 0 ? Math.sqrt(values[j]) : 0;
      for (let i = 0; i < n; i++) out[i * components + j] = vectors[j * n + i] * scale;
    }
  }
  const projected = new Float32Array(n * components);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < components; j++) s += out[i * components + j] * out[i * components + j];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < components; j++) projected[i * components + j] = out[i * components + j] * inv;
  }
  return projected;
}

/** The rows minus their mean, in float64. */
function centre(rows: Float32Array, n: number, dim: number): Float64Array {
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) for (let t = 0; t < dim; t++) mean[t] += rows[i * dim + t];
  for (let t = 0; t < dim; t++) mean[t] /= n;
  const out = new Float64Array(n * dim);
  for (let i = 0; i < n; i++) for (let t = 0; t < dim; t++) out[i * dim + t] = rows[i * dim + t] - mean[t];
  return out;
}

/** Xᵀ X of the centred rows (dim × dim; the upper triangle only, all that the eigensolver reads). */
function covariance(x: Float64Array, n: number, dim: number): Float64Array {
  const c = new Float64Array(dim * dim);
  // Four rows per pass over c (which outgrows the caches at a few hundred dimensions): a quarter of the traffic.
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const r0 = i * dim;
    const r1 = r0 + dim;
    const r2 = r1 + dim;
    const r3 = r2 + dim;
    for (let a = 0; a < dim; a++) {
      const x0 = x[r0 + a];
      const x1 = x[r1 + a];
      const x2 = x[r2 + a];
      const x3 = x[r3 + a];
      const ca = a * dim;
      for (let b = a; b < dim; b++)
        c[ca + b] += x0 * x[r0 + b] + x1 * x[r1 + b] + (x2 * x[r2 + b] + x3 * x[r3 + b]);
    }
  }
  for (; i < n; i++) {
    const row = i * dim;
    for (let a = 0; a < dim; a++) {
      const xa = x[row + a];
      const ca = a * dim;
      for (let b = a; b < dim; b++) c[ca + b] += xa * x[row + b];
    }
  }
  return c;
}

/** X Xᵀ of the centred rows (n × n; the upper triangle only). */
function gram(x: Float64Array, n: number, dim: number): Float64Array {
  const g = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++) {
      let s = 0;
      for (let t = 0; t < dim; t++) s += x[a * dim + t] * x[b * dim + t];
      g[a * n + b] = s;
    }
  }
  return g;
}

/** Leading eigenpairs of a symmetric matrix: values largest first, vectors[j · size …] the j-th (unit length). */
export interface LeadingEigen {
  values: Float64Array;
  vectors: Float64Array;
}

/**
 * The `count` largest eigenvalues of the symmetric size × size matrix `a` (row-major, only its upper triangle
 * read; overwritten) and their
 * unit eigenvectors. The matrix is reduced to tridiagonal form by Householder reflections (kept, not
 * multiplied out), its eigenvalues found by the implicit QL iteration, whose plane rotations are recorded and
 * then applied, with the reflections, to the `count` chosen columns only: about size³ multiply-adds for the
 * reduction and size² · count for the vectors, instead of ~4 size³ for all of them. Exported for its tests.
 */
export function leadingEigen(a: Float64Array, size: number, count: number): LeadingEigen {
  const { diag, off, reflectors } = tridiagonalise(a, size);
  const rotations = qlEigenvalues(diag, off);
  // The largest eigenvalues, ties in index order (deterministic).
  const order = Array.from({ length: size }, (_, i) => i).sort((p, q) => diag[q] - diag[p] || p - q);
  const chosen = order.slice(0, count);
  const values = Float64Array.from(chosen, (i) => diag[i]);
  const vectors = new Float64Array(count * size);
  chosen.forEach((i, j) => (vectors[j * size + i] = 1));
  // Z e_i with Z = G_1 G_2 … G_K (the rotations in the order QL applied them): apply G_K first.
  const { at, cos, sin, length } = rotations;
  for (let r = length - 1; r >= 0; r--) {
    const i = at[r];
    const c = cos[r];
    const s = sin[r];
    for (let j = 0; j < count; j++) {
      const base = j * size;
      const u = vectors[base + i];
      const w = vectors[base + i + 1];
      vectors[base + i] = c * u + s * w;
      vectors[base + i + 1] = c * w - s * u;
    }
  }
  // Q y with Q = H_0 H_1 … H_{size−3}: apply the last reflection first.
  for (let k = size - 3; k >= 0; k--) {
    const v = reflectors.subarray(k * size, (k + 1) * size);
    for (let j = 0; j < count; j++) {
      const base = j * size;
      let dot = 0;
      for (let t = k + 1; t < size; t++) dot += v[t] * vectors[base + t];
      if (dot === 0) continue;
      const f = 2 * dot;
      for (let t = k + 1; t < size; t++) vectors[base + t] -= f * v[t];
    }
  }
  return { values, vectors };
}

interface Tridiagonal {
  /** The diagonal. */
  diag: Float64Array;
  /** off[i] couples i and i + 1; off[size − 1] = 0. */
  off: Float64Array;
  /** Row k: the unit vector of reflection k (zero from 0 to k), or all zero where no reflection was needed. */
  reflectors: Float64Array;
}

/**
 * Householder reduction of a symmetric matrix to T = Qᵀ A Q, Q = H_0 … H_{size−3}, H_k = I − 2 v_k v_kᵀ with
 * v_k supported on k + 1 … size − 1. Reads and updates the upper triangle of `a` only, row by row (the
 * lower one is left stale): no strided writes down columns.
 */
function tridiagonalise(a: Float64Array, size: number): Tridiagonal {
  const diag = new Float64Array(size);
  const off = new Float64Array(size);
  const reflectors = new Float64Array(size * size);
  const p = new Float64Array(size);
  for (let k = 0; k < size - 2; k++) {
    const v = reflectors.subarray(k * size, (k + 1) * size);
    const rowK = k * size;
    let norm2 = 0;
    for (let t = k + 1; t < size; t++) norm2 += a[rowK + t] * a[rowK + t];
    const head = a[rowK + k + 1];
    const alpha = head >= 0 ? -Math.sqrt(norm2) : Math.sqrt(norm2);
    diag[k] = a[rowK + k];
    // v = x − alpha e_1, normalised; |v|² = 2 (norm2 − alpha · head).
    const vNorm2 = 2 * (norm2 - alpha * head);
    if (vNorm2 === 0) {
      off[k] = head;
      continue;
    }
    const inv = 1 / Math.sqrt(vNorm2);
    for (let t = k + 1; t < size; t++) v[t] = a[rowK + t] * inv;
    v[k + 1] = (head - alpha) * inv;
    off[k] = alpha;
    // Trailing block B ← H B H = B − 2 (v qᵀ + q vᵀ), p = B v, q = p − (vᵀ p) v.
    for (let r = k + 1; r < size; r++) p[r] = 0;
    for (let r = k + 1; r < size; r++) {
      const row = r * size;
      const vr = v[r];
      let s = a[row + r] * vr;
      for (let t = r + 1; t < size; t++) {
        const b = a[row + t];
        s += b * v[t];
        p[t] += b * vr;
      }
      p[r] += s;
    }
    let kk = 0;
    for (let r = k + 1; r < size; r++) kk += v[r] * p[r];
    for (let r = k + 1; r < size; r++) p[r] -= kk * v[r];
    for (let r = k + 1; r < size; r++) {
      const row = r * size;
      const vr = 2 * v[r];
      const qr = 2 * p[r];
      for (let t = r; t < size; t++) a[row + t] -= vr * p[t] + qr * v[t];
    }
  }
  if (size >= 2) {
    diag[size - 2] = a[(size - 2) * size + size - 2];
    off[size - 2] = a[(size - 2) * size + size - 1];
  }
  diag[size - 1] = a[(size - 1) * size + size - 1];
  off[size - 1] = 0;
  return { diag, off, reflectors };
}

interface Rotations {
  at: Int32Array;
  cos: Float64Array;
  sin: Float64Array;
  length: number;
}

/** A growable record of plane rotations (index, cos, sin). */
class RotationLog {
  at = new Int32Array(1024);
  cos = new Float64Array(1024);
  sin = new Float64Array(1024);
  length = 0;

  push(i: number, c: number, s: number): void {
    if (this.length === this.at.length) {
      const grow = this.at.length * 2;
      const at = new Int32Array(grow);
      const cos = new Float64Array(grow);
      const sin = new Float64Array(grow);
      at.set(this.at);
      cos.set(this.cos);
      sin.set(this.sin);
      this.at = at;
      this.cos = cos;
      this.sin = sin;
    }
    this.at[this.length] = i;
    this.cos[this.length] = c;
    this.sin[this.length] = s;
    this.length++;
  }
}

/**
 * Eigenvalues of the symmetric tridiagonal matrix (diag, off) by the implicit QL iteration with Wilkinson
 * shifts; `diag` ends holding them (unsorted) and `off` is destroyed. Returns the rotations applied, in order:
 * rotation r mixes columns at[r] and at[r] + 1 of the eigenvector matrix Z (Z ← Z G_r).
 */
function qlEigenvalues(diag: Float64Array, off: Float64Array): Rotations {
  const size = diag.length;
  const log = new RotationLog();
  // Rounding level of the whole matrix: a rank-deficient covariance (passages repeated, fewer distinct vectors
  // than dimensions) has a null block whose entries are all rounding noise, where the relative test below
  // never holds (its scale is noise too) and the iteration would not converge. There it splits at the
  // rounding level of the matrix instead; a block of real eigenvalues never meets this clause.
  let norm = 0;
  for (let i = 0; i < size; i++) norm = Math.max(norm, Math.abs(diag[i]) + Math.abs(off[i]));
  const noise = Number.EPSILON * norm;
  for (let l = 0; l < size; l++) {
    for (let iteration = 0; ; iteration++) {
      let m = l;
      for (; m < size - 1; m++) {
        const scale = Math.abs(diag[m]) + Math.abs(diag[m + 1]);
        if (Math.abs(off[m]) + scale === scale) break;
        if (scale <= noise && Math.abs(off[m]) <= noise) break;
      }
      if (m === l) break;
      if (iteration === MAX_QL_ITERATIONS) {
        throw new Error(`leadingEigen: the QL iteration did not converge on eigenvalue ${l} of ${size}.`);
      }
      // Wilkinson shift from the leading 2 × 2 block.
      let g = (diag[l + 1] - diag[l]) / (2 * off[l]);
      let r = Math.sqrt(g * g + 1);
      g = diag[m] - diag[l] + off[l] / (g + (g >= 0 ? r : -r));
      let s = 1;
      let c = 1;
      let p = 0;
      let i = m - 1;
      let deflated = false;
      for (; i >= l; i--) {
        const f = s * off[i];
        const b = c * off[i];
        r = Math.sqrt(f * f + g * g);
        off[i + 1] = r;
        if (r === 0) {
          // Underflow: the matrix splits here; undo the last shift and start again.
          diag[i + 1] -= p;
          off[m] = 0;
          deflated = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = diag[i + 1] - p;
        r = (diag[i] - g) * s + 2 * c * b;
        p = s * r;
        diag[i + 1] = g + p;
        g = c * r - b;
        log.push(i, c, s);
      }
      if (deflated) continue;
      diag[l] -= p;
      off[l] = g;
      off[m] = 0;
    }
  }
  return log;
}
