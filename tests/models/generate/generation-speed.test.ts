/**
 * Pure parts of the built-in model: the device and dtype each browser gets, the tag a tree records, the speed
 * arithmetic and the plan of a build's summaries (tests/pipeline/builtin-build.test.ts compares it with a build).
 */
import { describe, expect, it } from 'vitest';
import {
  decodeSeconds,
  estimateSummarySeconds,
  planSummaryRange,
  planSummaryWork,
  SpeedMeter,
  speedOf,
} from '../../../src/models/generate/generation-speed';
import { type SampleRates, movedToCpu } from '../../../src/models/generate';
import {
  builtinModelTag,
  CPU_PRESET_ID,
  defaultPreset,
  GENERATOR_PRESETS,
  GPU_PRESET_ID,
  llamaCppWebGpuGap,
  NO_SHADER_F16,
  parseBuiltinModelTag,
  resolveRuntime,
  runtimeLabel,
  TEST_GGUF_GENERATOR_ID,
} from '../../../src/models/generate/generator-presets';

const NO_GPU = { adapter: false, f16: false, fallback: false, name: '' };
const GPU_F16 = { adapter: true, f16: true, fallback: false, name: 'test gpu' };
const GPU_NO_F16 = { adapter: true, f16: false, fallback: false, name: 'test gpu' };

describe('resolveRuntime', () => {
  it('puts the GPU preset on WebGPU in q4f16, or q4 without shader-f16', () => {
    expect(resolveRuntime({ model: GPU_PRESET_ID }, GPU_F16)).toEqual({
      model: GPU_PRESET_ID,
      device: 'webgpu',
      dtype: 'q4f16',
      runtime: 'onnx',
      dtypeFallbacks: ['q4', 'fp16', 'fp32'],
    });
    expect(resolveRuntime({ model: GPU_PRESET_ID }, GPU_NO_F16)).toMatchObject({
      dtype: 'q4',
      dtypeWhy: NO_SHADER_F16,
    });
    expect(resolveRuntime({ model: GPU_PRESET_ID, dtype: 'q4' }, GPU_NO_F16).dtypeWhy).toBeUndefined();
    expect(resolveRuntime({ model: 'someone/any-instruct' }, GPU_NO_F16)).toMatchObject({
      device: 'webgpu',
      dtype: 'q4',
      dtypeWhy: NO_SHADER_F16,
    });
  });

  it("lets an 'auto' dtype fall back to the weights the model has, those the device runs, best first", () => {
    expect(resolveRuntime({ model: 'someone/any-instruct' }, GPU_NO_F16).dtypeFallbacks).toEqual(['fp32']);
    expect(resolveRuntime({ model: 'someone/any-instruct' }, NO_GPU).dtypeFallbacks).toEqual(['q4', 'fp32']);
    expect(resolveRuntime({ model: CPU_PRESET_ID }, GPU_F16).dtypeFallbacks).toEqual(['q4', 'fp32']);
    // A dtype the user chose is loaded or fails: nothing else is tried.
    expect(resolveRuntime({ model: GPU_PRESET_ID, dtype: 'q4f16' }, GPU_F16).dtypeFallbacks).toBeUndefined();
    // Moved to the CPU: the same weights where the CPU runs them, and the fallbacks the CPU can run.
    expect(movedToCpu(resolveRuntime({ model: GPU_PRESET_ID }, GPU_F16))).toMatchObject({
      device: 'wasm',
      dtype: 'q4',
      dtypeFallbacks: ['fp32'],
    });
  });

  it('says why a GPU got q4 rather than q4f16 where it names the weights', () => {
    const gpu = { device: 'webgpu', adapter: 'test gpu' } as const;
    expect(runtimeLabel({ device: 'webgpu', dtype: 'q4', dtypeWhy: NO_SHADER_F16, placement: gpu })).toBe(
      'ONNX Runtime, WebGPU (test gpu), q4 (this GPU lacks shader-f16, which q4f16 needs)',
    );
    expect(runtimeLabel({ device: 'webgpu', dtype: 'q4f16', placement: gpu })).toBe(
      'ONNX Runtime, WebGPU (test gpu), q4f16',
    );
  });

  it('runs the CPU preset in WASM q8 even when a GPU exists, and anything without a GPU on WASM', () => {
    expect(resolveRuntime({ model: CPU_PRESET_ID }, GPU_F16)).toMatchObject({ device: 'wasm', dtype: 'q8' });
    expect(resolveRuntime({ model: GPU_PRESET_ID }, NO_GPU)).toMatchObject({ device: 'wasm', dtype: 'q8' });
    expect(resolveRuntime({ model: 'someone/any-instruct' }, NO_GPU)).toMatchObject({
      device: 'wasm',
      dtype: 'q8',
    });
    expect(resolveRuntime({ model: 'someone/any-instruct' }, GPU_F16)).toMatchObject({
      device: 'webgpu',
      dtype: 'q4f16',
    });
  });

  it("never takes the browser's software fallback adapter for 'auto', and says why; an explicit WebGPU still uses it", () => {
    const software = { adapter: true, f16: false, fallback: true, name: 'google swiftshader' };
    expect(resolveRuntime({ model: GPU_PRESET_ID }, software)).toMatchObject({
      device: 'wasm',
      dtype: 'q8',
      note: expect.stringContaining('software fallback (google swiftshader)'),
    });
    expect(resolveRuntime({ model: GPU_PRESET_ID, device: 'webgpu' }, software)).toMatchObject({
      device: 'webgpu',
      dtype: 'q4',
    });
    expect(defaultPreset(software).id).toBe(CPU_PRESET_ID);
    expect(defaultPreset(GPU_F16).id).toBe(GPU_PRESET_ID);
  });

  it('keeps explicit choices and uses the CPU backend in Node', () => {
    expect(resolveRuntime({ model: 'x', device: 'wasm', dtype: 'fp32' }, GPU_F16)).toMatchObject({
      device: 'wasm',
      dtype: 'fp32',
    });
    expect(resolveRuntime({ model: 'x' }, NO_GPU, true)).toMatchObject({ device: 'cpu', dtype: 'q8' });
  });

  it('offers a default preset per tier, each named with its size', () => {
    expect(defaultPreset(NO_GPU).id).toBe(CPU_PRESET_ID);
    expect(defaultPreset(GPU_NO_F16).id).toBe(GPU_PRESET_ID);
    for (const preset of GENERATOR_PRESETS) {
      expect(preset.label).toContain(preset.parameters);
      expect(preset.description).toMatch(/GB/);
    }
  });

  it('runs a GGUF file on llama.cpp with its own quantisation, on WASM without a GPU', () => {
    const hub = 'Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf';
    expect(resolveRuntime({ model: hub }, NO_GPU)).toEqual({
      model: hub,
      device: 'wasm',
      dtype: 'q4_k_m',
      runtime: 'llama.cpp',
    });
    const ok = { ok: true, missing: [], threads: true };
    expect(resolveRuntime({ model: TEST_GGUF_GENERATOR_ID }, NO_GPU, false, ok)).toMatchObject({
      runtime: 'llama.cpp',
      dtype: 'q8_0',
    });
    expect(resolveRuntime({ model: TEST_GGUF_GENERATOR_ID }, NO_GPU, false, ok).note).toBeUndefined();
  });

  it('places a GGUF file on WebGPU by the device rule (fake adapters): auto only on a hardware GPU with shader-f16', () => {
    const gguf = TEST_GGUF_GENERATOR_ID;
    const software = { adapter: true, f16: false, fallback: true, name: 'google swiftshader' };
    // auto: a hardware adapter with shader-f16 runs llama.cpp's WebGPU backend.
    expect(resolveRuntime({ model: gguf }, GPU_F16)).toEqual({
      model: gguf,
      device: 'webgpu',
      dtype: 'q8_0',
      runtime: 'llama.cpp',
    });
    // auto never takes the software fallback adapter, nor a GPU the backend cannot run on; each says why.
    expect(resolveRuntime({ model: gguf }, software)).toMatchObject({
      device: 'wasm',
      note: expect.stringContaining('software fallback (google swiftshader)'),
    });
    expect(resolveRuntime({ model: gguf }, GPU_NO_F16)).toMatchObject({
      device: 'wasm',
      note: "llama.cpp's WebGPU backend needs the shader-f16 feature, which WebGPU (test gpu) lacks",
    });
    expect(llamaCppWebGpuGap(GPU_F16)).toBeUndefined();
    // An explicit WebGPU is kept, even on the fallback adapter (the load checks it and says why it left);
    // an explicit WASM or CPU runs llama.cpp in WebAssembly.
    expect(resolveRuntime({ model: gguf, device: 'webgpu' }, software).device).toBe('webgpu');
    expect(resolveRuntime({ model: gguf, device: 'wasm' }, GPU_F16).device).toBe('wasm');
    expect(resolveRuntime({ model: gguf, device: 'cpu' }, GPU_F16).device).toBe('wasm');
    expect(resolveRuntime({ model: gguf, device: 'auto' }, NO_GPU)).toEqual({
      model: gguf,
      device: 'wasm',
      dtype: 'q8_0',
      runtime: 'llama.cpp',
    });
  });

  it('says which feature a browser lacks for llama.cpp, and keeps ONNX models on ONNX Runtime there', () => {
    const lacking = { ok: false, missing: ['JavaScript Promise Integration (JSPI)'], threads: true };
    expect(resolveRuntime({ model: TEST_GGUF_GENERATOR_ID }, NO_GPU, false, lacking).note).toBe(
      'this browser lacks JavaScript Promise Integration (JSPI)',
    );
    expect(resolveRuntime({ model: CPU_PRESET_ID }, NO_GPU, false, lacking)).toMatchObject({
      runtime: 'onnx',
      device: 'wasm',
      dtype: 'q8',
    });
  });

  it('names how a model runs for people: runtime, where (adapter or threads), weights', () => {
    const wasm = { device: 'wasm', threads: 2, isolated: true } as const;
    expect(runtimeLabel({ runtime: 'llama.cpp', device: 'wasm', dtype: 'q8_0', placement: wasm })).toBe(
      'llama.cpp, WASM (2 threads, cross-origin isolated), q8_0',
    );
    expect(
      runtimeLabel({
        runtime: 'onnx',
        device: 'webgpu',
        dtype: 'q4',
        placement: { device: 'webgpu', adapter: 'google swiftshader' },
      }),
    ).toBe('ONNX Runtime, WebGPU (google swiftshader), q4');
    // Without a placement (a record from before), the device and threads as they were known.
    expect(runtimeLabel({ runtime: 'onnx', device: 'wasm', dtype: 'q8' })).toBe('ONNX Runtime, wasm, q8');
    // A reply that moved mid-way names both devices and why.
    const moved = runtimeLabel({ runtime: 'onnx', device: 'webgpu', dtype: 'q4' }, [
      { placement: { device: 'webgpu', adapter: 'google swiftshader' }, count: 14 },
      {
        placement: wasm,
        count: 50,
        fallback: { kind: 'device-lost', message: 'the GPU was lost (destroyed)' },
      },
    ]);
    expect(moved).toBe(
      'ONNX Runtime, q4, WebGPU (google swiftshader): 14 tokens; then WASM (2 threads, cross-origin isolated): ' +
        '50 tokens (the GPU was lost (destroyed))',
    );
  });

  it('tags the writer of summaries with model and dtype, and reads the tag back', () => {
    const tag = builtinModelTag({ model: CPU_PRESET_ID, dtype: 'q8' });
    expect(tag).toBe('builtin:onnx-community/Qwen2.5-0.5B-Instruct@q8');
    expect(parseBuiltinModelTag(tag)).toEqual({ model: CPU_PRESET_ID, dtype: 'q8' });
    expect(parseBuiltinModelTag('gpt-4o-mini')).toBeUndefined();
    const gguf = builtinModelTag({ model: TEST_GGUF_GENERATOR_ID, dtype: 'q8_0' });
    expect(parseBuiltinModelTag(gguf)).toEqual({ model: TEST_GGUF_GENERATOR_ID, dtype: 'q8_0' });
  });
});

describe('speed arithmetic', () => {
  const reply = (
    prompt: number,
    completion: number,
    prefillMs: number,
    decodeMs: number,
    decodeShareMs?: number,
  ) => ({
    promptTokens: prompt,
    completionTokens: completion,
    timing: { prefillMs, decodeMs, ...(decodeShareMs !== undefined ? { decodeShareMs } : {}) },
  });

  it('rates a generation: prompt tokens over the prefill, decoding steps over the decode time', () => {
    expect(speedOf(reply(500, 11, 2000, 1000))).toEqual({
      prefillTokensPerSecond: 250,
      decodeTokensPerSecond: 10,
    });
    expect(speedOf(reply(5, 1, 10, 0)).decodeTokensPerSecond).toBeNaN();
  });

  it('sums generations into overall rates', () => {
    const meter = new SpeedMeter();
    expect(meter.speed.decodeTokensPerSecond).toBeNaN();
    meter.add(reply(100, 11, 1000, 1000));
    meter.add(reply(300, 21, 1000, 3000));
    expect(meter.speed).toEqual({ prefillTokensPerSecond: 200, decodeTokensPerSecond: 7.5 });
    expect(meter.completionTokens).toBe(32);
  });

  it('counts a batched reply’s share of each step, so the rate is tokens per second of decoding', () => {
    const meter = new SpeedMeter();
    // Four replies written together for 2 s: each spent 2 s of wall time but half a second of the steps.
    for (let i = 0; i < 4; i++) meter.add(reply(100, 21, 1000, 2000, 500));
    expect(meter.speed.decodeTokensPerSecond).toBe(40);
    expect(meter.speed.prefillTokensPerSecond).toBe(100);
  });

  const sample = (rows: number, batchRate: number): SampleRates => ({
    prefillTokensPerSecond: 100,
    decodeTokensPerSecond: 10,
    batch: { rows, decodeTokensPerSecond: batchRate },
    modelTokensPerToken: 1.5,
    promptTokens: 0,
    completionTokens: 0,
    seconds: 0,
  });

  it('estimates seconds from the work and a measured sample', () => {
    const work = { summaries: 2, promptTokens: 1000, outputTokens: 200, layers: 1, perLayer: [2] };
    expect(estimateSummarySeconds(work, sample(1, 10))).toBeCloseTo((1000 * 1.5) / 100 + 200 / 10);
  });

  it('writes a layer’s summaries as many at a time as the model batches, a small layer in a smaller batch', () => {
    // 8 at a time write 40 tokens/s together (a step of 0.2 s against 0.1 s alone).
    const batched = sample(8, 40);
    const full = { summaries: 16, promptTokens: 0, outputTokens: 1600, layers: 1, perLayer: [16] };
    expect(decodeSeconds(full, batched)).toBeCloseTo(1600 / 40);
    // 4 summaries: 100 steps of 4 rows, each step between 0.1 s and 0.2 s (4 of 8 rows: 0.1 + 0.1 × 3/7).
    const small = { summaries: 4, promptTokens: 0, outputTokens: 400, layers: 1, perLayer: [4] };
    expect(decodeSeconds(small, batched)).toBeCloseTo(100 * (0.1 + (0.1 * 3) / 7));
    // One summary is written alone, at the lone rate.
    const one = { summaries: 1, promptTokens: 0, outputTokens: 100, layers: 1, perLayer: [1] };
    expect(decodeSeconds(one, batched)).toBeCloseTo(100 / 10);
    // A whole plan: the layers add up, and batching shortens it.
    const plan = planSummaryWork(1000, 85_000);
    expect(plan.perLayer).toEqual([167, 28, 5]);
    expect(decodeSeconds(plan, batched)).toBeCloseTo(
      (167 * 100) / 40 + (28 * 100) / 40 + 100 * (0.1 + (0.1 * 4) / 7),
    );
    expect(estimateSummarySeconds(plan, batched)).toBeLessThan(estimateSummarySeconds(plan, sample(1, 10)));
  });
});

describe('planSummaryWork', () => {
  it('gives a too-short document one root summary, and nothing to a single chunk', () => {
    expect(planSummaryWork(5, 400)).toMatchObject({ summaries: 1, layers: 1, outputTokens: 100 });
    expect(planSummaryWork(1, 80)).toMatchObject({ summaries: 0, layers: 0 });
  });

  it('shrinks layers by the paper’s branching until a layer is small enough, within maxLayers', () => {
    const work = planSummaryWork(1000, 85_000);
    // 1000 → 167 → 28 → 5 nodes: three layers.
    expect(work).toMatchObject({ summaries: 167 + 28 + 5, layers: 3, outputTokens: 200 * 100 });
    expect(work.promptTokens).toBeGreaterThan(85_000 + 16_700 + 2_800);
    expect(planSummaryWork(1000, 85_000, { maxLayers: 1 }).summaries).toBe(167);
  });

  it('spans a range from large to small clusters', () => {
    const range = planSummaryRange(1000, 85_000);
    expect(range.fewest.summaries).toBeLessThan(range.likely.summaries);
    expect(range.likely.summaries).toBeLessThan(range.most.summaries);
    expect(range.likely).toEqual(planSummaryWork(1000, 85_000));
  });
});
