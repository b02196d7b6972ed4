import { describe, expect, it } from 'vitest';
import { APP_STALL_MS, stallOf } from '../../bench/build/app-run';

describe("the app build bench's stall watch", () => {
  const clicked = 1_000_000;

  it('lets a build run while its progress view keeps changing', () => {
    const watch = { text: 'Clustering layer 1UMAP on all nodes (40%)', changedAt: clicked + 100_000 };
    expect(stallOf(watch, clicked, clicked + 100_000 + APP_STALL_MS - 1)).toBeUndefined();
  });

  it('calls a build stalled once its progress view has not changed for the stall time, and says where', () => {
    const watch = { text: 'Loading modelLoading…', changedAt: clicked + 2_000 };
    const message = stallOf(watch, clicked, clicked + 2_000 + APP_STALL_MS);
    expect(message).toBe(
      `the progress view showed "Loading modelLoading…" unchanged for 300 s (302 s after "Build tree" was clicked)`,
    );
  });

  it('counts from the click when the view last changed before it (a click that started nothing)', () => {
    const watch = { text: '', changedAt: clicked - 60_000 };
    expect(stallOf(watch, clicked, clicked + APP_STALL_MS - 1)).toBeUndefined();
    expect(stallOf(watch, clicked, clicked + APP_STALL_MS)).toMatch(
      /^the progress view showed no current step/,
    );
  });
});
