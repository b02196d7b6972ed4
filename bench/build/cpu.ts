/**
 * How busy the machine's cores were during each stage of a build, from the kernel's own counters
 * (`/proc/stat`, Linux): the bench samples them while the browser builds and charges each interval's busy
 * time to the stages it overlaps. It shows which stages keep every core busy (embedding with ONNX Runtime's
 * threads) and which leave cores idle — and what a build of the same work would take if no core were ever
 * idle, a floor that no scheduling of that work can beat. Given a process (the bench's own), only the ticks of
 * that process and those below it count as busy (`/proc/<pid>/stat`), so other people's work on a shared
 * machine neither hides the build's idle cores nor counts as its work.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The machine-wide CPU counters at one moment (clock ticks summed over all cores). */
export interface CpuSample {
  /** `Date.now()` when read. */
  atMs: number;
  /** Ticks spent working (user, nice, system, irq, softirq, steal); with a root process, its tree's only. */
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

/** One process's line of `/proc/<pid>/stat`: its parent and the ticks it has run (user + system). */
export function parsePidStat(text: string): { ppid: number; ticks: number } | undefined {
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: read after the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3): ppid is field 4, utime 14, stime 15.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ppid) && Number.isFinite(ticks) ? { ppid, ticks } : undefined;
}

/**
 * The ticks run so far by `root` and every process below it, by pid (Linux; empty elsewhere). Scans `/proc`
 * once (a few hundred small reads, about a millisecond).
 */
export function readTreeTicks(root: number): Map<number, number> {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return new Map();
  }
  for (const pid of pids) {
    try {
      const stat = parsePidStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (stat) stats.set(Number(pid), stat);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const inTree = new Map<number, boolean>();
  const below = (pid: number): boolean => {
    if (pid === root) return true;
    const known = inTree.get(pid);
    if (known !== undefined) return known;
    const parent = stats.get(pid)?.ppid;
    inTree.set(pid, false); // a cycle (pid reuse mid-scan) ends here
    const result = parent !== undefined && parent > 1 && below(parent);
    inTree.set(pid, result);
    return result;
  };
  const out = new Map<number, number>();
  for (const [pid, stat] of stats) if (below(pid)) out.set(pid, stat.ticks);
  return out;
}

/**
 * Samples the counters every `intervalMs` until `stop`, which returns the samples (empty where they
 * cannot be read). Reading them costs microseconds: the sampling does not load the machine it measures.
 * With `rootPid` (the browser's process), `busy` counts only the ticks of that process and the processes
 * below it (its renderers, workers' threads, GPU and utility processes), so other people's work on a shared
 * machine does not count: a process's ticks count from its previous sample (from 0 for one started since, and
 * a process that ended keeps what it had), so the counter only grows.
 */
export function startCpuSampler(intervalMs = 100, rootPid?: number): { stop(): CpuSample[] } {
  const samples: CpuSample[] = [];
  let previous = new Map<number, number>();
  let treeBusy = 0;
  const take = () => {
    const sample = readCpu();
    if (!sample) return;
    if (rootPid !== undefined) {
      const now = readTreeTicks(rootPid);
      for (const [pid, ticks] of now) treeBusy += Math.max(0, ticks - (previous.get(pid) ?? 0));
      previous = now;
      sample.busy = treeBusy;
    }
    samples.push(sample);
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
