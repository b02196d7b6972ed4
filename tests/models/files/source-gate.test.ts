/**
 * ModelSourceGate (source-gate.ts): loads from the app's folder and from the hub take turns in one realm, loads
 * of one source run together, and the realm's switches stay those of every running load until it settles.
 * The loads here are FAKE (promises the test settles); the real loads are in tests/models/embed/load-sources.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ModelSourceGate, type ModelFileSource } from '../../../src/models/files';

/** A fake load the test ends; `seen` records the switches' source at its start and at its end. */
function deferred() {
  let end!: () => void;
  let fail!: (e: unknown) => void;
  const settled = new Promise<void>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  return { settled, end, fail };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('ModelSourceGate (fake loads)', () => {
  it('keeps a local load’s switches until it settles: a hub load asked meanwhile waits for it', async () => {
    let switches: ModelFileSource | undefined;
    const gate = new ModelSourceGate((source) => (switches = source));
    const order: string[] = [];
    const local = deferred();
    const localLoad = gate.run('local', async () => {
      order.push(`local starts (${switches})`);
      await local.settled;
      order.push(`local reads its last file (${switches})`);
    });
    const hubLoad = gate.run('hub', async () => {
      order.push(`hub starts (${switches})`);
    });
    await tick();
    expect(gate.running).toBe('local');
    expect(switches).toBe('local');
    local.end();
    await Promise.all([localLoad, hubLoad]);
    expect(order).toEqual(['local starts (local)', 'local reads its last file (local)', 'hub starts (hub)']);
    expect(gate.running).toBeUndefined();
  });

  it('runs loads of one source together, and the other source after the last of them, failed or not', async () => {
    let switches: ModelFileSource | undefined;
    const gate = new ModelSourceGate((source) => (switches = source));
    const first = deferred();
    const second = deferred();
    const started: string[] = [];
    const a = gate.run('hub', async () => {
      started.push('hub a');
      await first.settled;
    });
    const b = gate.run('hub', async () => {
      started.push('hub b');
      await second.settled;
    });
    const c = gate.run('local', async () => {
      started.push(`local (${switches})`);
      return 'loaded';
    });
    await tick();
    expect(started).toEqual(['hub a', 'hub b']);
    first.fail(new TypeError('Failed to fetch'));
    await expect(a).rejects.toThrow('Failed to fetch');
    await tick();
    expect(started).toEqual(['hub a', 'hub b']); // b still holds the hub's switches
    second.end();
    await b;
    await expect(c).resolves.toBe('loaded');
    expect(started).toEqual(['hub a', 'hub b', 'local (local)']);
  });
});
