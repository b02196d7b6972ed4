/**
 * The WebGPU device a worker's models run on, owned by Aerie instead of ONNX Runtime: requested once (so a failed
 * `requestDevice` is a fault with its cause, not a failed model load), checked on a known input before any model
 * uses it (an adapter that computes wrong numbers is caught before it writes garbage into a tree), and watched
 * while models run: a lost device, an out-of-memory or a validation error (WebGPU reports those as events, not as
 * exceptions, so a run could otherwise return garbage silently) makes `guard` reject with a `GpuFault`. The first
 * fault is kept: the worker's models then run on WASM for the rest of its life (the callers switch; nothing here
 * retries the GPU).
 *
 * ONNX Runtime takes the device through its WebGPU execution provider's `device` option
 * (`sessionOptionsFor`), which transformers.js passes on as `session_options`.
 */
import { AerieError } from '../../core/errors';
import type { DeviceFallback, GpuFaultKind } from './placement';
import { adapterName, isFallbackAdapter, navigatorGpu, requestGpuAdapter, type GpuLike } from './webgpu';

/** Why WebGPU cannot be used (any more) in this worker. `details.kind` says what happened. */
export class GpuFault extends AerieError<'GPU_FAULT'> {
  constructor(
    readonly kind: GpuFaultKind,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super('GPU_FAULT', message, { kind, ...details });
  }

  /** What the callers record and show. */
  get fallback(): DeviceFallback {
    return { kind: this.kind, message: this.message };
  }
}

/** The parts of a GPUDevice Aerie uses. */
export interface GpuDeviceLike {
  lost: Promise<{ reason?: string; message?: string }>;
  addEventListener(
    type: 'uncapturederror',
    listener: (event: { error?: { message?: string } }) => void,
  ): void;
  destroy?(): void;
}

/** A device ready for models. */
export interface GpuHandle {
  device: GpuDeviceLike;
  /** What the adapter calls itself ("google swiftshader"). */
  adapter: string;
  /** The device has `shader-f16` (q4f16 and fp16 weights). */
  f16: boolean;
  /** The adapter is the browser's software fallback. */
  fallback: boolean;
}

/** The result of the known-input check: the largest difference from the reference, and what it may be. */
export interface GpuCheckResult {
  maxError: number;
  tolerance: number;
}

/** Options of `GpuDevice`. */
export interface GpuDeviceOptions {
  /** `navigator.gpu`; default this realm's. */
  gpu?: GpuLike;
  /** Runs a small known input on the device (gpu-check.ts); none in tests that do not need it. */
  check?: (device: GpuDeviceLike) => Promise<GpuCheckResult>;
}

/** Features ONNX Runtime uses when the device has them. */
const WANTED_FEATURES = ['shader-f16', 'subgroups'] as const;

/** Error messages that mean the GPU ran out of memory. */
const OUT_OF_MEMORY = /out of memory|OutOfMemory|\bOOM\b|allocation failed|failed to allocate/i;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The adapter's limits, all of them at the adapter's maximum (ONNX Runtime needs large buffers). */
function allLimits(adapter: { limits?: object }): Record<string, number> {
  const limits: Record<string, number> = {};
  const source = adapter.limits as Record<string, unknown> | undefined;
  if (!source) return limits;
  for (const key in source) {
    const value = source[key];
    if (typeof value === 'number') limits[key] = value;
  }
  return limits;
}

/** One worker's WebGPU device (see the module comment). */
export class GpuDevice {
  private acquiring?: Promise<GpuHandle>;
  private handle?: GpuHandle;
  private firstFault?: GpuFault;
  private lostInfo?: { reason?: string; message?: string };
  private uncaptured: { message: string; outOfMemory: boolean }[] = [];

  constructor(private readonly options: GpuDeviceOptions = {}) {}

  /** The fault that ended WebGPU in this worker, if any. */
  get fault(): GpuFault | undefined {
    return this.firstFault;
  }

  /** The device once acquired (undefined before, or after a failure to acquire it). */
  get current(): GpuHandle | undefined {
    return this.firstFault ? undefined : this.handle;
  }

  /**
   * The device, requested and checked once.
   * @throws GpuFault (request-device, wrong-numbers, …; no adapter is `request-device` too), and the same
   *   fault again on every later call once one happened.
   */
  acquire(): Promise<GpuHandle> {
    if (this.firstFault) return Promise.reject(this.firstFault);
    this.acquiring ??= this.open();
    return this.acquiring;
  }

  private async open(): Promise<GpuHandle> {
    const adapter = await requestGpuAdapter(this.options.gpu ?? navigatorGpu());
    if (!adapter)
      throw this.remember(new GpuFault('request-device', 'this browser offers no WebGPU adapter'));
    const name = adapterName(adapter);
    let device: GpuDeviceLike;
    try {
      const requiredFeatures = WANTED_FEATURES.filter((f) => adapter.features.has(f));
      device = (await adapter.requestDevice({
        requiredFeatures: [...requiredFeatures],
        requiredLimits: allLimits(adapter as { limits?: object }),
        label: 'aerie-models',
      } as Parameters<typeof adapter.requestDevice>[0])) as GpuDeviceLike;
    } catch (error) {
      throw this.remember(
        new GpuFault('request-device', `WebGPU could not create a device on ${name} (${messageOf(error)})`, {
          adapter: name,
        }),
      );
    }
    void device.lost.then((info) => {
      this.lostInfo = info;
      this.remember(this.lostFault(name));
    });
    device.addEventListener('uncapturederror', (event) => {
      const error = event.error as { message?: string; constructor?: { name?: string } } | undefined;
      const message = error?.message ?? 'an uncaptured WebGPU error';
      const outOfMemory = error?.constructor?.name === 'GPUOutOfMemoryError' || OUT_OF_MEMORY.test(message);
      this.uncaptured.push({ message, outOfMemory });
    });
    const handle: GpuHandle = {
      device,
      adapter: name,
      f16: adapter.features.has('shader-f16'),
      fallback: isFallbackAdapter(adapter),
    };
    this.handle = handle;
    if (this.options.check) {
      let result: GpuCheckResult;
      try {
        result = await this.guard(() => this.options.check!(device));
      } catch (error) {
        throw this.fail(error);
      }
      if (!(result.maxError <= result.tolerance)) {
        throw this.remember(
          new GpuFault(
            'wrong-numbers',
            `WebGPU (${name}) computed wrong numbers on a known input (largest error ` +
              `${result.maxError.toPrecision(2)}, allowed ${result.tolerance})`,
            { adapter: name, maxError: result.maxError },
          ),
        );
      }
    }
    return handle;
  }

  private lostFault(adapter: string): GpuFault {
    const reason = this.lostInfo?.reason || 'unknown';
    const detail = this.lostInfo?.message ? `: ${this.lostInfo.message}` : '';
    return new GpuFault('device-lost', `the GPU (${adapter}) was lost (${reason}${detail})`, {
      adapter,
      reason,
    });
  }

  /** Keeps the first fault and returns it: the worker's one reason for leaving WebGPU. */
  private remember(fault: GpuFault): GpuFault {
    this.firstFault ??= fault;
    return this.firstFault;
  }

  /**
   * Turns an error of WebGPU work into the worker's fault (kept: WebGPU is not used again here) and returns it.
   * An AbortError is not a fault: it is returned as it is, and nothing is remembered.
   */
  fail(error: unknown): GpuFault {
    if (error instanceof GpuFault) return this.remember(error);
    const adapter = this.handle?.adapter ?? 'the adapter';
    if (this.lostInfo) return this.remember(this.lostFault(adapter));
    const message = messageOf(error);
    const last = this.uncaptured[0];
    if (OUT_OF_MEMORY.test(message) || last?.outOfMemory || error instanceof RangeError) {
      return this.remember(
        new GpuFault(
          'out-of-memory',
          `the GPU (${adapter}) ran out of memory (${last?.message ?? message})`,
          {
            adapter,
          },
        ),
      );
    }
    if (last) {
      return this.remember(
        new GpuFault(
          'gpu-error',
          `WebGPU (${adapter}) reported an error, an operation it cannot run here (${last.message})`,
          { adapter },
        ),
      );
    }
    return this.remember(
      new GpuFault('failed', `the model failed on WebGPU (${adapter}): ${message}`, { adapter }),
    );
  }

  /**
   * Runs WebGPU work and rejects with the worker's `GpuFault` if the device is lost meanwhile (without waiting
   * for the work, which may never settle) or WebGPU has reported an error (an out-of-memory, a validation error)
   * since the device was made: the work's result is then not trusted. Other errors of the work pass through
   * unchanged (the caller decides whether they are faults).
   * `onGpu` false: the work runs on the CPU and is only run.
   */
  async guard<T>(work: () => Promise<T>, onGpu = true): Promise<T> {
    const handle = this.handle;
    // Work on the CPU is none of the device's business (after a fault, the models run there).
    if (!handle || !onGpu) return work();
    // Any error WebGPU reported since the device was made (during this work or between two runs) ends its use.
    const check = () => {
      if (this.lostInfo) throw this.fail(new Error('device lost'));
      if (this.uncaptured.length > 0) throw this.fail(new Error(this.uncaptured[0].message));
    };
    check();
    const lost = handle.device.lost.then(() => {
      throw this.fail(new Error('device lost'));
    });
    lost.catch(() => undefined);
    const result = await Promise.race([work(), lost]);
    check();
    return result;
  }

  /** Session options that make ONNX Runtime (through transformers.js) run on this device. */
  static sessionOptionsFor(handle: GpuHandle): {
    executionProviders: { name: 'webgpu'; device: GPUDevice }[];
  } {
    return { executionProviders: [{ name: 'webgpu', device: handle.device as unknown as GPUDevice }] };
  }
}
