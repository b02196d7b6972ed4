/**
 * The model-service skeleton's slot (`ModelSlot`), with FAKE models and a fake WebGPU (Node has none): each
 * policy the services use — the embedder's ('once-loaded', 'per-load'), the reranker's ('at-once', 'per-load')
 * and the built-in model's ('at-once', 'per-service') — holds what that service did before it shared the slot.
 * The services' own tests (tests/models/embed, tests/models/generate) check the same through their APIs.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceFallback } from '../../../src/models/device';
import { fakeGpuDevice as gpuDevice } from '../../support/fake-gpu';
import { ModelSlot, type LoadPolicy } from '../../../src/models/service';

/** A fake model named `name` on `device` that counts its disposals. */
function fakeModel(name: string, device: 'webgpu' | 'wasm' = 'wasm', fallback?: DeviceFallback) {
  const model = {
    name,
    info: { device, dtype: 'q8' },
    fallback,
    disposed: 0,
    dispose: async () => void model.disposed++,
  };
  return model;
}
type FakeModel = ReturnType<typeof fakeModel>;

/** A load the test settles by hand. */
function pendingLoad(name: string) {
  let resolve!: (m: FakeModel) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<FakeModel>((res, rej) => ((resolve = res), (reject = rej)));
  return { name, load: () => promise, resolve: () => resolve(fakeModel(name)), reject, promise };
}

const EMBEDDER: LoadPolicy = { replace: 'once-loaded', exit: 'per-load' };
const GENERATOR: LoadPolicy = { replace: 'at-once', exit: 'per-service' };
/** Lets the slot's own `then` callbacks run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ModelSlot (fake models): load once', () => {
  it('shares one load for a key and its aliases, and loads again for another key', async () => {
    const slot = new ModelSlot<FakeModel>(gpuDevice(), GENERATOR);
    let loads = 0;
    const what = {
      name: 'a',
      load: async () => (loads++, fakeModel('a')),
      aliases: (m: FakeModel) => [`a|${m.info.dtype}`],
    };
    const first = slot.ensure('a|auto', what);
    expect(slot.ensure('a|auto', what)).toBe(first);
    await first.model;
    await settle();
    expect(slot.ensure('a|q8', what)).toBe(first);
    expect(loads).toBe(1);
    slot.ensure('b|auto', { name: 'b', load: async () => (loads++, fakeModel('b')) });
    expect(loads).toBe(2);
  });

  it("'at-once': frees the model before at once, and a failed load leaves none (the next call retries)", async () => {
    const slot = new ModelSlot<FakeModel>(gpuDevice(), GENERATOR);
    const a = await slot.ensure('a', { name: 'a', load: async () => fakeModel('a') }).model;
    const b = pendingLoad('b');
    slot.ensure('b', b);
    await settle();
    expect(a.disposed).toBe(1);
    b.reject(new Error('hub unreachable'));
    await b.promise.catch(() => undefined);
    await settle();
    expect(slot.current).toBeUndefined();
    expect(await slot.loaded()).toBeUndefined();
  });

  it("'once-loaded': keeps the model before until the new one has loaded, and a failed load makes it current again", async () => {
    const slot = new ModelSlot<FakeModel>(gpuDevice(), EMBEDDER);
    const first = slot.ensure('a', { name: 'a', load: async () => fakeModel('a') });
    const a = await first.model;
    const failing = pendingLoad('b');
    slot.ensure('b', failing);
    failing.reject(new Error('hub unreachable'));
    await failing.promise.catch(() => undefined);
    await settle();
    expect(slot.current).toBe(first);
    expect(a.disposed).toBe(0);
    const c = pendingLoad('c');
    slot.ensure('c', c);
    await settle();
    expect(a.disposed).toBe(0);
    c.resolve();
    await c.promise;
    await settle();
    expect(a.disposed).toBe(1);
    expect((await slot.loaded())?.name).toBe('c');
  });

  it('asks the policy before replacing a model, and a refusal leaves it loaded (the embedder while calls run)', async () => {
    const slot = new ModelSlot<FakeModel>(gpuDevice(), {
      ...EMBEDDER,
      beforeReplace(current, requested) {
        if (current.inFlight > 0) throw new Error(`busy with ${current.name}, not ${requested.name}`);
      },
    });
    const entry = slot.ensure('a', { name: 'a', load: async () => fakeModel('a') });
    let finish!: () => void;
    const call = slot.use(entry, () => new Promise<void>((r) => (finish = r)));
    expect(() => slot.ensure('b', { name: 'b', load: async () => fakeModel('b') })).toThrow(
      'busy with a, not b',
    );
    expect(slot.current).toBe(entry);
    finish();
    await call;
    expect(slot.ensure('b', { name: 'b', load: async () => fakeModel('b') }).name).toBe('b');
  });

  it('unloads: frees the model and forgets it', async () => {
    const slot = new ModelSlot<FakeModel>(gpuDevice(), GENERATOR);
    const a = await slot.ensure('a', { name: 'a', load: async () => fakeModel('a') }).model;
    await slot.unload();
    expect(a.disposed).toBe(1);
    expect(slot.current).toBeUndefined();
  });
});

describe('ModelSlot (fake models): the move off WebGPU', () => {
  /** A slot whose model `name` is on WebGPU, and a counter of CPU loads. */
  async function onGpu(policy: LoadPolicy, name = 'a') {
    const device = gpuDevice();
    await device.acquire();
    const slot = new ModelSlot<FakeModel>(device, policy);
    const entry = slot.ensure(name, { name, load: async () => fakeModel(name, 'webgpu') });
    const cpuLoads: DeviceFallback[] = [];
    const loadOnCpu = async (fallback: DeviceFallback) => (
      cpuLoads.push(fallback),
      fakeModel(name, 'wasm', fallback)
    );
    return { slot, entry, model: await entry.model, cpuLoads, loadOnCpu };
  }

  it('loads the CPU copy once for every failing call, and the entry then serves it under the extra keys', async () => {
    const { slot, entry, model, cpuLoads, loadOnCpu } = await onGpu(GENERATOR);
    const copies = await Promise.all(
      [new Error('device lost'), new Error('out of memory')].map((e) =>
        slot.leave(entry, model, e, loadOnCpu, ['a|wasm']),
      ),
    );
    expect(cpuLoads).toHaveLength(1);
    expect(copies[0]).toBe(copies[1]);
    expect(await entry.model).toBe(copies[0]);
    expect(entry.keys.has('a|wasm')).toBe(true);
    expect(model.disposed).toBe(1);
  });

  it("'per-load' gives each loaded model its own move; 'per-service' shares one, and none without an entry", async () => {
    for (const [policy, lateLoads] of [
      [EMBEDDER, 2],
      [GENERATOR, 3],
    ] as const) {
      const { slot, entry, model, cpuLoads, loadOnCpu } = await onGpu(policy);
      await slot.leave(entry, model, new Error('lost'), loadOnCpu);
      // A late failure on the same GPU model joins the move (whatever the policy).
      await slot.leave(entry, model, new Error('lost'), loadOnCpu);
      expect(cpuLoads).toHaveLength(1);
      const other = slot.ensure('b', { name: 'b', load: async () => fakeModel('b', 'webgpu') });
      await slot.leave(other, await other.model, new Error('lost'), loadOnCpu);
      expect(cpuLoads).toHaveLength(2);
      // Another late failure on the first model: its own move ('per-load'), or a new one ('per-service' remembers
      // only the last move, as the generate service's one GpuExit did).
      await slot.leave(entry, model, new Error('lost'), loadOnCpu);
      expect(cpuLoads).toHaveLength(lateLoads);
    }
    // With no entry (the model was unloaded meanwhile) the move is not reused.
    const { slot, model, cpuLoads, loadOnCpu } = await onGpu(GENERATOR);
    await slot.leave(undefined, model, new Error('lost'), loadOnCpu);
    await slot.leave(undefined, model, new Error('lost'), loadOnCpu);
    expect(cpuLoads).toHaveLength(2);
  });

  it('passes through a failure WebGPU cannot have caused, loading nothing', async () => {
    const { slot, entry, model, cpuLoads, loadOnCpu } = await onGpu(EMBEDDER);
    const missing = Object.assign(new Error('no such model'), { code: 'MODEL_NOT_FOUND' });
    await expect(slot.leave(entry, model, missing, loadOnCpu)).rejects.toBe(missing);
    expect(cpuLoads).toHaveLength(0);
    expect(await entry.model).toBe(model);
  });
});
