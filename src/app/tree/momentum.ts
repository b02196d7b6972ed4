/**
 * Momentum after a drag (a flick with a finger or the mouse): the pan's speed at release, from the transform's
 * x over the last few moves, and how far a fling carries on. The fling is a d3 transition of the zoom
 * transform whose ease (cubic out) starts at the release speed, so the content leaves the finger at the speed
 * it had and slows to a stop; the next touch or click interrupts it, as d3-zoom interrupts any transition.
 * A wheel or a trackpad needs none: the system already sends their momentum as wheel events.
 */

/** Only moves this recent count towards the release speed (ms). */
export const VELOCITY_WINDOW_MS = 100;
/** A release slower than this (CSS px per ms) just stops. */
export const FLING_MIN_SPEED = 0.25;
/** A drag that rested this long before the release does not fling (ms). */
export const FLING_REST_MS = 60;
/** How long a fling lasts (ms); it covers speed × FLING_MS / 3 (cubic-out starts at 3× its mean speed). */
export const FLING_MS = 700;

/** Cubic ease-out: starts at 3× the mean speed, ends at rest. */
export function easeOutCubic(t: number): number {
  return 1 - (1 - t) * (1 - t) * (1 - t);
}

/** Recent (time, x) samples of a drag, in ms and CSS pixels. */
export class PanTracker {
  private readonly times: number[] = [];
  private readonly xs: number[] = [];

  /** Forgets the samples (a new gesture, or one that is not a pan). */
  reset(): void {
    this.times.length = 0;
    this.xs.length = 0;
  }

  /** Records the transform's x at time `at`. */
  add(at: number, x: number): void {
    this.times.push(at);
    this.xs.push(x);
    while (this.times.length > 2 && at - this.times[0] > VELOCITY_WINDOW_MS) {
      this.times.shift();
      this.xs.shift();
    }
  }

  /**
   * The distance (CSS px, signed) a fling released at `now` carries on, or 0 when the drag was too slow, had
   * rested before the release, or has too few samples.
   */
  flingDistance(now: number): number {
    const n = this.times.length;
    if (n < 2 || now - this.times[n - 1] > FLING_REST_MS) return 0;
    const dt = this.times[n - 1] - this.times[0];
    if (dt <= 0) return 0;
    const speed = (this.xs[n - 1] - this.xs[0]) / dt;
    return Math.abs(speed) < FLING_MIN_SPEED ? 0 : (speed * FLING_MS) / 3;
  }
}
