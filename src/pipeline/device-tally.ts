/**
 * Where a build's models ran, counted as it goes: texts embedded and summary tokens written on each device
 * (models/device/placement.ts), from each embedding batch's and each reply's `ranOn`. The first use of a device that a
 * model moved to because WebGPU failed (or could not be used) is reported once as a `device-fallback` notice.
 */
import { addUse, type DeviceUse } from '../models/device';
import type { DeviceFallbackNotice, RunDevices } from '../protocol/build';

/** The build's models, by what they did. */
export type DeviceModel = keyof RunDevices;

/** The tally of one build (see the module comment). */
export class DeviceTally {
  private devices: RunDevices;
  private readonly told = new Set<string>();
  /** Hears each model's move to the CPU once (set by the build). */
  onFallback?: (notice: DeviceFallbackNotice) => void;

  /** Starts from `earlier`: what a resumed build's earlier runs did. */
  constructor(earlier?: RunDevices) {
    this.devices = { ...earlier };
  }

  /** True while no model has loaded. */
  get empty(): boolean {
    return !this.devices.embedding && !this.devices.summaries;
  }

  /** Counts `uses` of `model` (none: nothing changes). */
  add(model: DeviceModel, uses: readonly DeviceUse[] | undefined): void {
    for (const use of uses ?? []) {
      this.devices[model] = addUse(this.devices[model] ?? [], use.placement, use.count, use.fallback);
      const fallback = use.fallback;
      // Choosing the CPU over a software adapter is a choice, said where the device is shown; a fault is news.
      if (!fallback || fallback.kind === 'fallback-adapter') continue;
      const key = `${model}|${fallback.message}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      this.onFallback?.({ stage: 'device-fallback', model, to: use.placement, fallback });
    }
  }

  /** A copy of the tally (safe to send and store). */
  snapshot(): RunDevices {
    const copy: RunDevices = {};
    if (this.devices.embedding) copy.embedding = this.devices.embedding.map((u) => ({ ...u }));
    if (this.devices.summaries) copy.summaries = this.devices.summaries.map((u) => ({ ...u }));
    return copy;
  }
}
