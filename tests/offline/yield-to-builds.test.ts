/**
 * The offline copy's install waits for builds (src/offline/yield-to-builds.ts): before each file it looks at the
 * origin's Web Locks and waits while a build's lock is held, up to a total cap; only install fetches wait. Fake
 * locks, clock and timer; e2e/offline.spec.ts holds a real build lock against the real service worker.
 */
import { describe, expect, it } from 'vitest';
import { buildLockName } from '../../src/pipeline/locks';
import { buildGate, buildRunning, yieldToBuilds, type LockQuery } from '../../src/offline/yield-to-builds';

/** Fake locks whose held names the test sets; counts the queries. */
function fakeLocks(held: string[] = []) {
  const state = { held, queries: 0 };
  const locks: LockQuery = {
    query: async () => {
      state.queries++;
      return { held: state.held.map((name) => ({ name })) };
    },
  };
  return { locks, state };
}

/** A fake clock whose sleep advances it, and can run a callback after each sleep. */
function fakeTime(afterSleep?: (at: number) => void) {
  let at = 0;
  return {
    now: () => at,
    sleep: async (ms: number) => {
      at += ms;
      afterSleep?.(at);
    },
  };
}

describe('buildRunning', () => {
  it('sees a build’s lock, and only a build’s', async () => {
    expect(await buildRunning(fakeLocks([buildLockName('t-1')]).locks)).toBe(true);
    expect(await buildRunning(fakeLocks(['aerie-something-else']).locks)).toBe(false);
    expect(await buildRunning(fakeLocks().locks)).toBe(false);
  });
});

describe('buildGate', () => {
  it('passes at once when no build runs', async () => {
    const { locks, state } = fakeLocks();
    const time = fakeTime();
    const gate = buildGate(locks, time);
    await gate.pass();
    expect(state.queries).toBe(1);
    expect(gate.waitedMs).toBe(0);
  });

  it('waits while a build’s lock is held and passes once it is released', async () => {
    const { locks, state } = fakeLocks([buildLockName('t-1')]);
    const time = fakeTime((at) => {
      if (at >= 2000) state.held = [];
    });
    const gate = buildGate(locks, { ...time, pollMs: 500 });
    await gate.pass();
    expect(time.now()).toBe(2000);
    expect(gate.waitedMs).toBe(2000);
    // Released: the next file passes without waiting.
    await gate.pass();
    expect(gate.waitedMs).toBe(2000);
  });

  it('waits at most maxWaitMs over the whole install, then never again', async () => {
    const { locks } = fakeLocks([buildLockName('t-1')]);
    const time = fakeTime();
    const gate = buildGate(locks, { ...time, pollMs: 400, maxWaitMs: 1000 });
    await gate.pass();
    expect(gate.waitedMs).toBe(1000);
    const before = time.now();
    await gate.pass();
    expect(time.now()).toBe(before);
  });

  it('never waits without Web Locks, or when the locks cannot be read', async () => {
    await buildGate(undefined).pass();
    const broken: LockQuery = { query: () => Promise.reject(new Error('no locks here')) };
    const time = fakeTime();
    await buildGate(broken, time).pass();
    expect(time.now()).toBe(0);
  });
});

describe('yieldToBuilds (the Workbox plugin)', () => {
  it('holds back the install’s fetches while a build runs, never a page’s', async () => {
    const passed: string[] = [];
    const gate = {
      pass: async () => {
        passed.push('gate');
      },
    };
    const plugin = yieldToBuilds(gate);
    const request = new Request('http://localhost/ort/a.wasm');
    expect(await plugin.requestWillFetch({ request, event: new Event('install') })).toBe(request);
    expect(passed).toEqual(['gate']);
    await plugin.requestWillFetch({ request, event: new Event('fetch') });
    await plugin.requestWillFetch({ request });
    expect(passed).toEqual(['gate']);
  });
});
