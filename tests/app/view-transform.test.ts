/**
 * The view as d3-zoom keeps it (src/app/tree/view-transform.ts): the transform ↔ leaf slots round trip through
 * d3-scale's `rescaleX`, the x-only clamp, the targets of a glide, and the glide's path; and the fling after a
 * drag (src/app/tree/momentum.ts).
 */
import { describe, expect, it } from 'vitest';
import { ZoomTransform, zoomIdentity } from 'd3-zoom';
import { easeOutCubic, FLING_MS, PanTracker } from '../../src/app/tree/momentum';
import {
  constrainX,
  interpolateSteady,
  scaleExtentOf,
  targetTransform,
  transformOf,
  viewOf,
  type Extent,
} from '../../src/app/tree/view-transform';

const LEAVES = 1000;
const WIDTH = 500;
const EXTENT: Extent = [
  [0, 0],
  [WIDTH, 300],
];

describe('the view from the transform', () => {
  it('is the whole tree at the identity, and a zoom about a point keeps the slot under it', () => {
    expect(viewOf(zoomIdentity, LEAVES, WIDTH)).toEqual({ x0: 0, x1: LEAVES });
    // d3-zoom's zoom about pixel 100 by 4: translate so that the point under 100 stays.
    const p = 100;
    const t = zoomIdentity.translate(p - p * 4, 0).scale(4);
    const view = viewOf(t, LEAVES, WIDTH);
    expect(view.x1 - view.x0).toBeCloseTo(LEAVES / 4, 9);
    expect(view.x0 + (p / WIDTH) * (view.x1 - view.x0)).toBeCloseTo((p / WIDTH) * LEAVES, 9);
  });

  it('round-trips views and transforms, whatever the width', () => {
    for (const view of [
      { x0: 0, x1: LEAVES },
      { x0: 120, x1: 180 },
      { x0: 998, x1: 1000 },
    ]) {
      for (const width of [340, 660, 1200]) {
        const back = viewOf(transformOf(view, LEAVES, width), LEAVES, width);
        expect(back.x0).toBeCloseTo(view.x0, 9);
        expect(back.x1).toBeCloseTo(view.x1, 9);
      }
    }
  });
});

describe('the clamp', () => {
  it('keeps the view within the tree along x and pins y to 0', () => {
    const past = new ZoomTransform(2, 80, -40); // shows slots [-40, 460): past the left edge
    const c = constrainX(past, EXTENT, EXTENT);
    expect(c.y).toBe(0);
    expect(viewOf(c, LEAVES, WIDTH)).toEqual({ x0: 0, x1: LEAVES / 2 });
    const right = constrainX(new ZoomTransform(2, -900, 0), EXTENT, EXTENT);
    expect(viewOf(right, LEAVES, WIDTH).x1).toBeCloseTo(LEAVES, 9);
    const inside = new ZoomTransform(2, -100, 0);
    expect(constrainX(inside, EXTENT, EXTENT)).toBe(inside);
  });

  it('scales from Fit to a view of two leaf slots', () => {
    expect(scaleExtentOf(LEAVES)).toEqual([1, LEAVES / 2]);
    expect(scaleExtentOf(1)).toEqual([1, 1]);
  });

  it('takes a glide to a single leaf to two slots about it, and one past the edge back inside', () => {
    const leaf = viewOf(targetTransform({ x0: 500, x1: 501 }, LEAVES, WIDTH, 300), LEAVES, WIDTH);
    expect(leaf.x1 - leaf.x0).toBeCloseTo(2, 9);
    expect((leaf.x0 + leaf.x1) / 2).toBeCloseTo(500.5, 9);
    const edge = viewOf(targetTransform({ x0: 999.5, x1: 1000.5 }, LEAVES, WIDTH, 300), LEAVES, WIDTH);
    expect(edge.x0).toBeCloseTo(998, 9);
    expect(edge.x1).toBeCloseTo(1000, 9);
  });
});

describe('the glide', () => {
  it('keeps the scale on a pan and the shared point still on a zoom, ending at the target', () => {
    const pan = interpolateSteady([100, 0, 50], [300, 0, 50]);
    expect(pan(0.5)).toEqual([200, 0, 50]);
    // Zoom from [0, 100) to [40, 50): the point both share on screen, 44.44…, stays at the same place.
    const a = { centre: 50, width: 100 };
    const b = { centre: 45, width: 10 };
    const zoom = interpolateSteady([a.centre, 0, a.width], [b.centre, 0, b.width]);
    const fixed = (a.centre * b.width - b.centre * a.width) / (b.width - a.width);
    const share = (fixed - a.centre) / a.width;
    for (const t of [0.25, 0.5, 0.75]) {
      const [centre, , width] = zoom(t);
      expect((fixed - centre) / width).toBeCloseTo(share, 9);
    }
    expect(zoom(0.5)[2]).toBeCloseTo(Math.sqrt(1000), 9);
    const [centre, , width] = zoom(1);
    expect(centre).toBeCloseTo(b.centre, 9);
    expect(width).toBeCloseTo(b.width, 9);
  });
});

describe('momentum', () => {
  it('flings a drag released at speed, at that speed, and not one that rested or crawled', () => {
    const fast = new PanTracker();
    for (let t = 0; t <= 80; t += 16) fast.add(t, t * 1.5); // 1.5 px/ms to the right
    const distance = fast.flingDistance(85);
    expect(distance).toBeCloseTo((1.5 * FLING_MS) / 3, 6);
    // The ease starts at the release speed: distance × ease'(0) / duration.
    const slope = (easeOutCubic(1e-6) / 1e-6) * (distance / FLING_MS);
    expect(slope).toBeCloseTo(1.5, 3);
    expect(fast.flingDistance(200)).toBe(0); // rested before the release
    const slow = new PanTracker();
    for (let t = 0; t <= 80; t += 16) slow.add(t, t * 0.1);
    expect(slow.flingDistance(85)).toBe(0);
    const left = new PanTracker();
    for (let t = 0; t <= 80; t += 16) left.add(t, -t);
    expect(left.flingDistance(81)).toBeLessThan(0);
  });
});
