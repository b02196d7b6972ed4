import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import { leadingEigen, principalProjection } from '../../../src/core/cluster/pca';
import { seededRandom } from '../../../src/core/random';

/** Rows of uniform noise with a few directions of larger variance (so the leading 50 are well separated). */
function randomRows(n: number, dim: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const rows = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < dim; t++)
      rows[i * dim + t] = (random() - 0.5) * (t < 8 ? 4 : 1) + (t === 0 ? 0.3 : 0);
  }
  return rows;
}

/** ml-matrix's reference: centred rows projected on the covariance's leading eigenvectors, rows unit length. */
function reference(rows: Float32Array, n: number, dim: number, components: number): number[][] {
  const mean = new Array<number>(dim).fill(0);
  for (let i = 0; i < n; i++) for (let t = 0; t < dim; t++) mean[t] += rows[i * dim + t] / n;
  const x = new Matrix(
    Array.from({ length: n }, (_, i) => Array.from({ length: dim }, (_, t) => rows[i * dim + t] - mean[t])),
  );
  const evd = new EigenvalueDecomposition(x.transpose().mmul(x), { assumeSymmetric: true });
  const order = evd.realEigenvalues
    .map((value, i) => [value, i])
    .sort((p, q) => q[0] - p[0])
    .slice(0, components)
    .map(([, i]) => i);
  const projected = x.mmul(evd.eigenvectorMatrix.subMatrixColumn(order)).to2DArray();
  return projected.map((row) => {
    const norm = Math.sqrt(row.reduce((s, v) => s + v * v, 0));
    return row.map((v) => v / norm);
  });
}

describe('principalProjection', () => {
  // n ≥ dim takes the covariance path, n < dim the Gram matrix's.
  for (const [n, dim] of [
    [180, 64],
    [70, 150],
  ]) {
    it(`matches ml-matrix's eigendecomposition up to each direction's sign (${n} × ${dim})`, () => {
      const rows = randomRows(n, dim, n + dim);
      const ours = principalProjection(rows, n, dim, 50);
      const theirs = reference(rows, n, dim, 50);
      expect(ours.length).toBe(n * 50);
      for (let j = 0; j < 50; j++) {
        // Signs are arbitrary: align each of our columns with the reference's.
        let dot = 0;
        for (let i = 0; i < n; i++) dot += ours[i * 50 + j] * theirs[i][j];
        const sign = dot >= 0 ? 1 : -1;
        for (let i = 0; i < n; i++) expect(sign * ours[i * 50 + j]).toBeCloseTo(theirs[i][j], 5);
      }
      // Cosines between rows, what the global k-NN graph sees, do not depend on the signs at all.
      for (let i = 0; i < n; i += 7) {
        let norm = 0;
        for (let j = 0; j < 50; j++) norm += ours[i * 50 + j] ** 2;
        expect(norm).toBeCloseTo(1, 6);
      }
    });
  }

  it('gives the leading eigenpairs of a symmetric matrix, largest first', () => {
    const random = seededRandom(5);
    const size = 40;
    const a = new Float64Array(size * size);
    for (let r = 0; r < size; r++)
      for (let c = r; c < size; c++) a[r * size + c] = a[c * size + r] = random() - 0.5;
    const evd = new EigenvalueDecomposition(
      new Matrix(Array.from({ length: size }, (_, r) => Array.from(a.subarray(r * size, (r + 1) * size)))),
      {
        assumeSymmetric: true,
      },
    );
    const expected = [...evd.realEigenvalues].sort((p, q) => q - p).slice(0, 5);
    const matrix = Float64Array.from(a);
    const { values, vectors } = leadingEigen(matrix, size, 5);
    for (let j = 0; j < 5; j++) {
      expect(values[j]).toBeCloseTo(expected[j], 10);
      // A v = λ v.
      for (let r = 0; r < size; r++) {
        let s = 0;
        for (let c = 0; c < size; c++) s += a[r * size + c] * vectors[j * size + c];
        expect(s).toBeCloseTo(values[j] * vectors[j * size + r], 10);
      }
    }
  });

  it('projects rows of repeated passages (a covariance of low rank) without failing', () => {
    // 1,224 rows of 23 distinct vectors (a document that repeats itself): the covariance's null block is all
    // rounding noise, where the QL iteration's relative test never held ("did not converge on eigenvalue 0").
    const random = seededRandom(11);
    for (const [distinct, n] of [
      [23, 1224],
      [5, 300],
    ]) {
      const dim = 100;
      const bases = Array.from({ length: distinct }, () =>
        Float32Array.from({ length: dim }, () => random() - 0.5),
      );
      const rows = new Float32Array(n * dim);
      for (let i = 0; i < n; i++) rows.set(bases[i % distinct], i * dim);
      const projected = principalProjection(rows, n, dim, 50);
      const row = (i: number) => Array.from(projected.subarray(i * 50, (i + 1) * 50));
      const dot = (a: number[], b: number[]) => a.reduce((sum, v, t) => sum + v * b[t], 0);
      for (let i = 0; i + distinct < n; i++) {
        expect(dot(row(i), row(i))).toBeCloseTo(1, 6);
        // Rows of one passage project alike; rows of two passages do not.
        expect(row(i + distinct)).toEqual(row(i));
        expect(dot(row(i), row(i + 1))).toBeLessThan(0.99);
      }
    }
  });

  it('is deterministic and says what sizes do not fit', () => {
    const rows = randomRows(60, 60, 1);
    expect(principalProjection(rows, 60, 60, 50)).toEqual(principalProjection(rows, 60, 60, 50));
    expect(() => principalProjection(rows, 60, 60, 61)).toThrow(/61 components asked of 60 rows of 60/);
    expect(() => principalProjection(rows, 61, 60, 50)).toThrow(RangeError);
  });
});
