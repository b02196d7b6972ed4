import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  busyFloorMs,
  cpuBySpan,
  parsePidStat,
  parseProcStat,
  readCpu,
  readTreeTicks,
  startCpuSampler,
  type CpuSample,
} from '../../bench/build/cpu';

const STAT = `cpu  100 5 20 300 7 1 2 3 11 0
cpu0 50 2 10 150 3 0 1 1 5 0
intr 12345
`;

describe('the build bench’s CPU accounting', () => {
  it('reads busy and total ticks from /proc/stat’s aggregate line (guest time is inside user)', () => {
    // busy = user 100 + nice 5 + system 20 + irq 1 + softirq 2 + steal 3; idle 300 and iowait 7 are not busy.
    expect(parseProcStat(STAT, 42)).toEqual({ atMs: 42, busy: 131, total: 438 });
    expect(parseProcStat('intr 1\n', 0)).toBeUndefined();
    expect(parseProcStat('cpu  1 2 x 4 5 6 7 8\n', 0)).toBeUndefined();
  });

  it('charges each interval’s busy core-time to the spans it overlaps, in proportion', () => {
    // 2 cores. 0–1,000 ms: 100 of 100 ticks busy (both cores: 2,000 core-ms); 1,000–2,000 ms: 50 of 100 (1,000).
    const samples: CpuSample[] = [
      { atMs: 0, busy: 0, total: 0 },
      { atMs: 1000, busy: 100, total: 100 },
      { atMs: 2000, busy: 150, total: 200 },
    ];
    const spans = [
      { name: 'embed', startMs: 0, endMs: 1000 },
      { name: 'cluster', startMs: 1000, endMs: 1500 },
      { name: 'store', startMs: 1500, endMs: 2000 },
      { name: 'straddle', startMs: 750, endMs: 1250 },
      { name: 'after', startMs: 2000, endMs: 2500 },
    ];
    const cpu = cpuBySpan(samples, spans, 2);
    expect(cpu.map((c) => [c.name, c.wallMs, c.busyCoreMs])).toEqual([
      ['embed', 1000, 2000],
      ['cluster', 500, 500],
      ['store', 500, 500],
      ['straddle', 500, 500 + 250],
      ['after', 500, 0],
    ]);
    // The floor: 3,000 busy core-ms over 2 cores.
    expect(busyFloorMs(cpu.slice(0, 3), 2)).toBe(1500);
  });

  it('skips intervals without ticks or time (a counter read twice in the same instant)', () => {
    const samples: CpuSample[] = [
      { atMs: 0, busy: 0, total: 0 },
      { atMs: 0, busy: 5, total: 10 },
      { atMs: 100, busy: 5, total: 10 },
      { atMs: 200, busy: 15, total: 20 },
    ];
    const [span] = cpuBySpan(samples, [{ name: 's', startMs: 0, endMs: 200 }], 1);
    expect(span.busyCoreMs).toBe(100);
  });

  it('reads this machine’s counters, which only grow (Linux)', () => {
    const first = readCpu();
    if (process.platform !== 'linux') {
      expect(first).toBeUndefined();
      return;
    }
    let spin = 0;
    for (let i = 0; i < 2e7; i++) spin += i;
    const second = readCpu()!;
    expect(spin).toBeGreaterThan(0);
    expect(second.total).toBeGreaterThanOrEqual(first!.total);
    expect(second.busy).toBeGreaterThanOrEqual(first!.busy);
    expect(second.busy).toBeLessThanOrEqual(second.total);
  });

  it('reads a process’s parent and ticks from /proc/<pid>/stat, even with spaces and parentheses in its name', () => {
    // Fields: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const line = '4242 (Web (Content) 1) S 17 4242 4242 0 -1 4194560 100 0 3 0 250 31 0 0 20 0 12 0\n';
    expect(parsePidStat(line)).toEqual({ ppid: 17, ticks: 281 });
    expect(parsePidStat('garbage')).toBeUndefined();
  });

  it('counts the ticks of a process and those below it only, and its sampler’s busy only grows (Linux)', async () => {
    if (process.platform !== 'linux') {
      expect(readTreeTicks(process.pid).size).toBe(0);
      return;
    }
    // A child that spins for 0.2 s of CPU time (however loaded the machine): it is below this process, so its
    // ticks count.
    const child = spawn(process.execPath, ['-e', 'while (process.cpuUsage().user < 200000);']);
    try {
      const sampler = startCpuSampler(20, process.pid);
      await new Promise((resolve) => setTimeout(resolve, 120));
      const tree = readTreeTicks(process.pid);
      expect(tree.has(process.pid)).toBe(true);
      expect(tree.has(child.pid!)).toBe(true);
      // Process 1 (init) is above this one, never below it.
      expect(tree.has(1)).toBe(false);
      await new Promise((resolve) => child.once('exit', resolve));
      const samples = sampler.stop();
      for (let i = 1; i < samples.length; i++)
        expect(samples[i].busy).toBeGreaterThanOrEqual(samples[i - 1].busy);
      // The child's spinning shows: at least a tenth of a second of ticks (100 a second) after the first sample.
      expect(samples.at(-1)!.busy - samples[0].busy).toBeGreaterThanOrEqual(10);
    } finally {
      child.kill();
    }
  });
});
