/**
 * The one rule by which a loaded model leaves WebGPU (`GpuExit`), shared by the embedding service (embedder and
 * reranker) and the generate service, with FAKE models and a fake WebGPU (Node has none): the same weights load on
 * the CPU once however many calls fail at once, with the device's fault as the reason; the GPU copy is freed; a
 * failure WebGPU cannot have caused, or one on the CPU, passes through untouched. The services' own tests
 * (tests/models/embed, tests/models/generate) check the move through their APIs.
 */
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/core/abort';
import { GpuExit, type DeviceFallback } from '../../../src/models/device';
import { fakeGpuDevice as gpuDevice } from '../../support/fake-gpu';
import { LoadListeners, type ModelLoadProgress } from '../../../src/models/files';

/** A fake model on `device` that counts its disposals and says why it runs where it does. */
function fakeModel(device: 'webgpu' | 'wasm', fallback?: DeviceFallback) {
  const model = { info: { device }, fallback, disposed: 0, dispose: async () => void model.disposed++ };
  return model;
}
type FakeModel = ReturnType<typeof fakeModel>;

/** A move whose CPU loads the test counts. */
function cpuLoads() {
  const loads: DeviceFallback[] = [];
  const moves: Promise<FakeModel>[] = [];
  return {
    loads,
    moves,
    move: {
      loadOnCpu: async (fallback: DeviceFallback) => {
        loads.push(fallback);
        return fakeModel('wasm', fallback);
      },
      onMove: (to: Promise<FakeModel>) => void moves.push(to),
    },
  };
}

describe('GpuExit: a model leaves WebGPU by one rule', () => {
  it('loads the CPU copy once however many calls fail on the same model, says why, and frees the GPU copy', async () => {
    const device = gpuDevice();
    await device.acquire();
    const exit = new GpuExit<FakeModel>(device);
    const onGpu = fakeModel('webgpu');
    const { loads, moves, move } = cpuLoads();
    const failures = [new Error('device lost while mapping'), new Error('GPU buffer out of memory')];
    const copies = await Promise.all(failures.map((error) => exit.leave(onGpu, error, move)));
    expect(loads).toHaveLength(1);
    expect(moves).toHaveLength(1);
    expect(copies[0]).toBe(copies[1]);
    expect(copies[0].info.device).toBe('wasm');
    expect(copies[0].fallback?.kind).toBe('failed');
    expect(onGpu.disposed).toBe(1);
  });

  it('moves again for another model, and when told not to reuse (the service was unloaded meanwhile)', async () => {
    const device = gpuDevice();
    await device.acquire();
    const exit = new GpuExit<FakeModel>(device);
    const { loads, move } = cpuLoads();
    const first = fakeModel('webgpu');
    await exit.leave(first, new Error('lost'), move);
    await exit.leave(fakeModel('webgpu'), new Error('lost'), move);
    await exit.leave(first, new Error('lost'), { ...move, reuse: false });
    expect(loads).toHaveLength(3);
  });

  it('passes through a failure WebGPU cannot have caused, and any failure of a model on the CPU', async () => {
    const exit = new GpuExit<FakeModel>(gpuDevice());
    const { loads, move } = cpuLoads();
    const onGpu = fakeModel('webgpu');
    const cancelled = new AbortError();
    await expect(exit.leave(onGpu, cancelled, move)).rejects.toBe(cancelled);
    const missing = Object.assign(new Error('no such model'), { code: 'MODEL_NOT_FOUND' });
    await expect(exit.leave(onGpu, missing, move)).rejects.toBe(missing);
    const onCpu = new Error('out of memory');
    await expect(exit.leave(fakeModel('wasm'), onCpu, move)).rejects.toBe(onCpu);
    expect(loads).toHaveLength(0);
    expect(onGpu.disposed).toBe(0);
  });
});

describe('LoadListeners: every caller waiting on a load hears its progress', () => {
  it('sends each report to the callers waiting at that moment, and none after a caller is done', async () => {
    const listeners = new LoadListeners();
    const heard: string[] = [];
    const report = (file: string): ModelLoadProgress => ({ file, loaded: 1, total: 2, status: 'progress' });
    let finish!: () => void;
    const load = new Promise<void>((resolve) => (finish = resolve));
    const first = listeners.during(
      (p) => heard.push(`a:${p.file}`),
      () => load,
    );
    const second = listeners.during(
      (p) => heard.push(`b:${p.file}`),
      () => load,
    );
    const silent = listeners.during(undefined, () => load);
    listeners.emit(report('model.onnx'));
    finish();
    await Promise.all([first, second, silent]);
    listeners.emit(report('late.json'));
    expect(heard).toEqual(['a:model.onnx', 'b:model.onnx']);
  });

  it('stops sending to a caller whose work failed, and passes the failure on', async () => {
    const listeners = new LoadListeners();
    const heard: string[] = [];
    const failure = new Error('hub unreachable');
    await expect(
      listeners.during(
        (p) => heard.push(p.file),
        () => Promise.reject(failure),
      ),
    ).rejects.toBe(failure);
    listeners.emit({ file: 'x', loaded: 0, total: 0, status: 'initiate' });
    expect(heard).toEqual([]);
  });
});
