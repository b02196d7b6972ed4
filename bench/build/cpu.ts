/**
 * How busy the machine's cores were during each stage of a build, from the kernel's own counters
 * (`/proc/stat`, Linux): the bench samples them while the browser builds and charges each interval's busy
 * time to the stages it overlaps. It shows which stages keep every core busy (embedding with ONNX Runtime's
 * threads) and which leave cores idle — and what a build of the same work would take if no core were ever
 * idle, a floor that no scheduling of that work can beat.
 */
import { readFileSync } from 'node:fs';

/** The machine-wide CPU counters at one moment (clock ticks summed over all cores). */
export interface CpuSample {
  /** `Date.now()` when read. */
  atMs: number;
  /** Ticks spent working (user, nice, system, irq, softirq, steal). */
  busy: number;
  /** All ticks, idle and iowait included. */
  total: number;
}

/** A named span of wall-clock time (`Date.now()` milliseconds). */
export interface Span {
  name: string;
  startMs: number;
  endMs: number;
}

/** What the cores did during one span. */
export interface SpanCpu {
  name: string;
  wallMs: number;
  /** Core-milliseconds spent working during the span (2 cores busy for 1 s: 2,000). */
  busyCoreMs: number;
}

/**
 * Parses the aggregate `cpu` line of `/proc/stat`: user nice system idle iowait irq softirq steal (guest
 * time is already inside user and nice, so it is not added again).
 */
export function parseProcStat(text: string, atMs: number): CpuSample | undefined {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 8 || fields.some((v) => !Number.isFinite(v))) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return { atMs, busy, total: busy + idle + iowait };
}

/** Reads the counters now, or undefined where `/proc/stat` does not exist (not Linux). */
export function readCpu(): CpuSample | undefined {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'), Date.now());
  } catch {
    return undefined;
  }
}

/**
 * Samples the counters every `intervalMs` until `stop`, which returns the samples (empty where they
 * cannot be read). Reading them costs microseconds: the sampling does not load the machine it measures.
 */
export function startCpuSampler(intervalMs = 100): { stop(): CpuSample[] } {
  const samples: CpuSample[] = [];
  const take = () => {
    const sample = readCpu();
    if (sample) samples.push(sample);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/**
 * Charges each interval between consecutive samples to the spans it overlaps, in proportion to the overlap
 * (the interval's cores were busy at an even rate for all the bench can tell).
 * @param cores the number of cores the counters sum over.
 */
export function cpuBySpan(samples: readonly CpuSample[], spans: readonly Span[], cores: number): SpanCpu[] {
  const out = spans.map((s) => ({ name: s.name, wallMs: s.endMs - s.startMs, busyCoreMs: 0 }));
  for (let i = 1; i < samples.length; i++) {
    const from = samples[i - 1];
    const to = samples[i];
    const ms = to.atMs - from.atMs;
    const ticks = to.total - from.total;
    if (ms <= 0 || ticks <= 0) continue;
    // Busy share of all cores' ticks, times the cores and the interval: core-milliseconds busy.
    const busyCoreMs = ((to.busy - from.busy) / ticks) * cores * ms;
    spans.forEach((span, k) => {
      const overlap = Math.min(span.endMs, to.atMs) - Math.max(span.startMs, from.atMs);
      if (overlap > 0) out[k].busyCoreMs += busyCoreMs * (overlap / ms);
    });
  }
  return out;
}

/**
 * The floor of a build: its busy core-time spread evenly over all cores, as if no core were ever idle.
 * The same work cannot finish sooner however it is scheduled.
 */
export function busyFloorMs(perSpan: readonly SpanCpu[], cores: number): number {
  return perSpan.reduce((sum, s) => sum + s.busyCoreMs, 0) / cores;
}
