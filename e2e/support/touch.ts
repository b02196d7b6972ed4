/**
 * Touch gestures as a touch screen sends them: Chromium's `Input.dispatchTouchEvent` over CDP (the path a real
 * finger's events take into the page, gesture detection and compatibility clicks included), for pages of a
 * context made with `hasTouch: true`. Points are in CSS pixels of the viewport.
 */
import type { CDPSession, Locator, Page } from '@playwright/test';

/** A point in CSS pixels of the viewport. */
export interface Point {
  x: number;
  y: number;
}

/** Moves a gesture makes between its start and its end. */
const STEPS = 8;

/** Sends touch points (each finger's id is its index); no points ends every touch. */
async function send(cdp: CDPSession, type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) {
  await cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id, radiusX: 4, radiusY: 4, force: 1 })),
  });
}

/** The touch screen of `page`. */
export async function touchscreen(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const between = (a: Point, b: Point, t: number): Point => ({
    x: a.x + (b.x - a.x) * t,
    y: a.y + (b.y - a.y) * t,
  });
  return {
    /** Two fingers from `from` to `to` (each a pair of points), in STEPS moves. */
    async pinch(from: [Point, Point], to: [Point, Point]): Promise<void> {
      await send(cdp, 'touchStart', from);
      for (let s = 1; s <= STEPS; s++) {
        const t = s / STEPS;
        await send(cdp, 'touchMove', [between(from[0], to[0], t), between(from[1], to[1], t)]);
      }
      await send(cdp, 'touchEnd', []);
    },
    /** One finger from `from` to `to`, in STEPS moves. */
    async drag(from: Point, to: Point): Promise<void> {
      await send(cdp, 'touchStart', [from]);
      for (let s = 1; s <= STEPS; s++) await send(cdp, 'touchMove', [between(from, to, s / STEPS)]);
      await send(cdp, 'touchEnd', []);
    },
    /** A tap (`times` taps in quick succession at the same point). */
    async tap(at: Point, times = 1): Promise<void> {
      for (let i = 0; i < times; i++) {
        await send(cdp, 'touchStart', [at]);
        await send(cdp, 'touchEnd', []);
      }
    },
  };
}

/** Two points `distance` px apart about `centre`, side by side. */
export function pair(centre: Point, distance: number): [Point, Point] {
  return [
    { x: centre.x - distance / 2, y: centre.y },
    { x: centre.x + distance / 2, y: centre.y },
  ];
}

/** The leaf slots the tree canvas last drew (its `data-view`). */
export async function drawnView(canvas: Locator): Promise<[number, number]> {
  return ((await canvas.getAttribute('data-view')) ?? '').split(' ').map(Number) as [number, number];
}

/** The tree canvas's view once it rests: unchanged over ten animation frames (after a glide or a fling). */
export async function restingView(canvas: Locator): Promise<[number, number]> {
  await canvas.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        let last = el.getAttribute('data-view');
        let still = 0;
        const tick = () => {
          const now = el.getAttribute('data-view');
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 10) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  return drawnView(canvas);
}

/** The leaf slot under client x (CSS px) in the view the tree canvas last drew. */
export async function slotAt(canvas: Locator, clientX: number): Promise<number> {
  const box = (await canvas.boundingBox())!;
  const [x0, x1] = await drawnView(canvas);
  return x0 + ((clientX - box.x) / box.width) * (x1 - x0);
}
