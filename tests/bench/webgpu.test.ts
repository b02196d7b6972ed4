import { describe, expect, it } from 'vitest';
import { gapOf, gapsOf, notSpeedOf } from '../../bench/gaps';
import { formatRow } from '../../bench/report';
import { softwareAdapterReason, webGpuLabel, webGpuVerdict, type WebGpuRun } from '../../bench/webgpu';
import type { GpuSupport } from '../../src/models/device';

/** Adapters as the app's probe reports them (fakes: no browser here). */
const swiftshader: GpuSupport = { adapter: true, f16: false, fallback: true, name: 'google swiftshader' };
const unflaggedSoftware: GpuSupport = { adapter: true, f16: false, fallback: false, name: 'mesa llvmpipe' };
const gpu: GpuSupport = { adapter: true, f16: true, fallback: false, name: 'nvidia ampere' };
const none: GpuSupport = { adapter: false, f16: false, fallback: false, name: '' };

function runOn(support: GpuSupport, overrides: Partial<WebGpuRun> = {}): WebGpuRun {
  return {
    gpu: support,
    placement: { device: 'webgpu', adapter: support.name },
    ranOn: `${webGpuLabel(support)}: 32 texts`,
    allOnGpu: true,
    ...overrides,
  };
}

const NAME = 'Embed 512 chunks, WebGPU fp32';

describe('softwareAdapterReason (fake adapters)', () => {
  it("names the browser's fallback adapter and a software rasteriser that is not flagged", () => {
    expect(softwareAdapterReason(swiftshader)).toMatch(
      /google swiftshader .*software fallback.*isFallbackAdapter/,
    );
    expect(softwareAdapterReason(unflaggedSoftware)).toMatch(/mesa llvmpipe is a software rasteriser/);
  });

  it('says nothing of a hardware adapter or of none', () => {
    expect(softwareAdapterReason(gpu)).toBeUndefined();
    expect(softwareAdapterReason(none)).toBeUndefined();
  });
});

describe('webGpuVerdict (fake runs)', () => {
  it('leaves a run on a hardware adapter to be timed (undefined: the caller prints the figure beside WASM)', () => {
    expect(webGpuVerdict(NAME, runOn(gpu), 'max |Δ| 1e-7')).toBeUndefined();
  });

  it('prints a software adapter NOT MEASURED as speed, with what ran, and it is no gap', () => {
    const line = webGpuVerdict(NAME, runOn(swiftshader), 'max |Δ| 6.0e-8')!;
    const text = formatRow(line);
    expect(text).toMatch(/^NOT MEASURED as speed Embed 512 chunks, WebGPU fp32: google swiftshader /);
    expect(text).toContain('no GPU speed');
    expect(text).toContain('The path ran: WebGPU (google swiftshader): 32 texts; max |Δ| 6.0e-8.');
    expect(text).toContain('On a machine with a GPU the same command prints the figure beside WASM.');
    expect(text).not.toMatch(/chunks\/s|tokens\/s/);
    expect(gapOf(line)).toBeUndefined();
    expect(gapsOf('embed', [line])).toEqual([]);
    expect(notSpeedOf('embed', [line])).toEqual([
      { section: 'embed', what: NAME, reason: expect.stringContaining('google swiftshader') },
    ]);
  });

  it('is a gap when there is no adapter, or when the model left WebGPU (a fault), even on a software adapter', () => {
    const noAdapter = webGpuVerdict(NAME, runOn(none), '')!;
    expect(formatRow(noAdapter)).toMatch(/^NOT MEASURED Embed .*: this Chromium offers no WebGPU adapter/);
    expect(gapOf(noAdapter)?.kind).toBe('figure');
    const fault = {
      kind: 'wrong-numbers' as const,
      message: 'WebGPU computed wrong numbers on a known input',
    };
    for (const support of [gpu, swiftshader]) {
      const moved = webGpuVerdict(
        NAME,
        runOn(support, {
          placement: { device: 'wasm', threads: 2, isolated: true },
          fallback: fault,
          ranOn: 'WASM (2 threads, cross-origin isolated): 32 texts',
        }),
        '',
      )!;
      expect(formatRow(moved)).toContain(
        `the model did not run on WebGPU (${support.name}) but WASM (2 threads, cross-origin isolated): 32 texts: ${fault.message}`,
      );
      expect(gapOf(moved)?.kind).toBe('figure');
    }
    const partly = webGpuVerdict(NAME, runOn(gpu, { allOnGpu: false }), '')!;
    expect(gapOf(partly)?.kind).toBe('figure');
  });
});
