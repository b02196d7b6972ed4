import { describe, expect, it } from 'vitest';
import {
  centreOn,
  FIT_PADDING,
  fitTransform,
  isInView,
  levelOfDetail,
  LOD_MID_SCALE,
  LOD_NEAR_SCALE,
  MAX_FIT_SCALE,
  MAX_ROW_GAP,
  MAX_SCALE,
  nextLabelWindow,
  ROW_PADDING,
  rowOffsets,
  scaleLimits,
  visibleRange,
} from '../../src/app/tree/viewport';

describe('levelOfDetail', () => {
  it('switches at the two thresholds', () => {
    expect(levelOfDetail(LOD_MID_SCALE - 1e-9)).toBe('far');
    expect(levelOfDetail(LOD_MID_SCALE)).toBe('mid');
    expect(levelOfDetail(LOD_NEAR_SCALE - 1e-9)).toBe('mid');
    expect(levelOfDetail(LOD_NEAR_SCALE)).toBe('near');
  });
});

describe('rowOffsets', () => {
  it('puts the top layer on top and the leaves at the bottom, evenly spaced within the padding', () => {
    const y = rowOffsets(4, 400);
    expect(y[3]).toBeLessThan(y[2]);
    expect(y[0]).toBe(Math.max(...y));
    const gap = y[0] - y[1];
    expect(y[1] - y[2]).toBeCloseTo(gap, 9);
    expect(y[3]).toBeGreaterThanOrEqual(ROW_PADDING - 1e-9);
    expect(y[0]).toBeLessThanOrEqual(400 - ROW_PADDING + 1e-9);
  });

  it('caps the gap for shallow trees and centres them', () => {
    const y = rowOffsets(2, 1000);
    expect(y[0] - y[1]).toBe(MAX_ROW_GAP);
    expect((y[0] + y[1]) / 2).toBe(500);
    expect(Array.from(rowOffsets(1, 300))).toEqual([150]);
  });
});

describe('fitTransform', () => {
  it('maps the tree’s extent onto the width minus the padding, centred', () => {
    const bounds = { minX: -10, maxX: 990 };
    const t = fitTransform(bounds, 500);
    expect(t.k).toBeCloseTo((500 - 2 * FIT_PADDING) / 1000, 12);
    expect(t.k * bounds.minX + t.x).toBeCloseTo(FIT_PADDING, 9);
    expect(t.k * bounds.maxX + t.x).toBeCloseTo(500 - FIT_PADDING, 9);
  });

  it('does not magnify a small tree beyond MAX_FIT_SCALE', () => {
    const t = fitTransform({ minX: 0, maxX: 20 }, 1000);
    expect(t.k).toBe(MAX_FIT_SCALE);
    expect(t.k * 10 + t.x).toBe(500);
  });
});

describe('scaleLimits', () => {
  it('lets one zoom out to half the fit and in until nodes would collide across rows', () => {
    const [min, max] = scaleLimits(0.02, 100);
    expect(min).toBe(0.01);
    expect(max).toBeGreaterThan(1);
    expect(max).toBeLessThanOrEqual(MAX_SCALE);
    expect(scaleLimits(0.5, 0)[1]).toBe(MAX_SCALE);
  });

  it('never gives a maximum below the fitting scale', () => {
    const [min, max] = scaleLimits(1.5, 5);
    expect(max).toBe(1.5);
    expect(min).toBeLessThanOrEqual(max);
  });
});

describe('visibility helpers', () => {
  it('inverts the transform for the visible range and the view test', () => {
    const t = { k: 2, x: -100 };
    expect(visibleRange(t, 400)).toEqual([50, 250]);
    expect(isInView(t, 150, 400, 40)).toBe(true);
    expect(isInView(t, 60, 400, 40)).toBe(false);
    const c = centreOn(300, 2, 400);
    expect(c.k * 300 + c.x).toBe(200);
  });
});

describe('nextLabelWindow', () => {
  it('gives no text unless zoomed in to the near level', () => {
    expect(nextLabelWindow(null, { k: LOD_NEAR_SCALE / 2, x: 0 }, 800)).toBeNull();
    expect(nextLabelWindow({ x0: 0, x1: 1 }, { k: LOD_MID_SCALE / 2, x: 0 }, 800)).toBeNull();
  });

  it('opens a window three views wide and keeps it while the view stays inside', () => {
    const t = { k: 1, x: -1000 };
    const w = nextLabelWindow(null, t, 800);
    expect(w).toEqual({ x0: 200, x1: 2600 });
    expect(nextLabelWindow(w, { k: 1, x: -1500 }, 800)).toBe(w);
    const moved = nextLabelWindow(w, { k: 1, x: -2000 }, 800);
    expect(moved).not.toBe(w);
    expect(moved).toEqual({ x0: 1200, x1: 3600 });
  });
});
