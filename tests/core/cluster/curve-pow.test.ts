/**
 * The stable layout's power (curve-pow.ts): as accurate as the layout needs over the squared distances it
 * meets, exact where its parts are, and independent of the engine's `Math.pow` (the kernel's twin is held to it
 * bit for bit in umap-kernel.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { curvePow, curvePowTable, EXP_ENTRIES, LOG_ENTRIES } from '../../../src/core/cluster/curve-pow';
import { curveParameters } from '../../../src/core/cluster/umap-layout';
import { seededRandom } from '../../../src/core/random';

const table = curvePowTable();

describe('curvePow', () => {
  it('is Math.pow to 2e-14 (relative) over squared distances 1e-12 … 1e6, at the curve’s b and others', () => {
    const random = seededRandom(4);
    const { b: curveB } = curveParameters();
    let worst = 0;
    for (const b of [curveB, 1, 0.5, 1.5, 0.05]) {
      for (let i = 0; i < 20000; i++) {
        const x = Math.exp((random() * 18 - 12) * Math.LN10);
        worst = Math.max(worst, Math.abs(curvePow(x, b, table) / Math.pow(x, b) - 1));
      }
    }
    expect(worst).toBeLessThan(2e-14);
  });

  it('keeps its accuracy at the ends: subnormal input, and 0 or Infinity where the double cannot hold x^b', () => {
    expect(curvePow(5e-324, 0.9, table) / Math.pow(5e-324, 0.9) - 1).toBeLessThan(1e-12);
    expect(curvePow(1e-300, 2.5, table)).toBe(0);
    expect(curvePow(1e300, 2.5, table)).toBe(Infinity);
  });

  it('fills its tables with the centres’ reciprocals, logarithms and 2^(j/64)', () => {
    expect(table).toHaveLength(2 * LOG_ENTRIES + EXP_ENTRIES);
    for (let i = 0; i < LOG_ENTRIES; i++) {
      const c = 1 + (i + 0.5) / LOG_ENTRIES;
      expect(table[i]).toBe(1 / c);
      expect(Math.abs(table[LOG_ENTRIES + i] - Math.log(c))).toBeLessThan(4e-16);
    }
    for (let j = 0; j < EXP_ENTRIES; j++)
      expect(table[2 * LOG_ENTRIES + j] / 2 ** (j / EXP_ENTRIES) - 1).toBeLessThan(4e-16);
  });
});
