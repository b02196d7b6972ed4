import { describe, expect, it } from 'vitest';
import { ALLOW_MISSING_ENV, ALLOW_MISSING_FLAG, EXIT_INCOMPLETE } from '../../bench/gaps';
import { notMeasured, notMeasuredAsSpeed, type BenchLine } from '../../bench/lines';
import { EXIT_USAGE, runSections, type Section } from '../../bench/sections';

/** Fake sections (no bench runs): one measures, one cannot, one throws. */
const measuredRow: BenchLine = {
  name: 'fake query',
  value: 1.5,
  unit: 'ms',
  reference: 3,
  referenceLabel: 'fake reference',
  higherIsBetter: false,
};
const fakeSections = (ran: string[]): Record<string, () => Promise<Section>> => ({
  fine: async () => async () => (ran.push('fine'), [measuredRow]),
  gap: async () => async () => (ran.push('gap'), [notMeasured('fake build', 'no fake model')]),
  software: async () => async () => (
    ran.push('software'),
    [measuredRow, notMeasuredAsSpeed('fake WebGPU row', 'fake software adapter')]
  ),
  broken: async () => async () => {
    ran.push('broken');
    throw new Error('fake page crashed');
  },
});

async function run(args: string[], env: Record<string, string> = {}) {
  const ran: string[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = await runSections(fakeSections(ran), args, env, {
    out: (text) => out.push(text),
    err: (text, error) => err.push(error === undefined ? text : `${text} ${(error as Error).message}`),
  });
  return { exitCode, ran, out: out.join('\n'), err: err.join('\n') };
}

describe('runSections (fake sections)', () => {
  it('exits 0 and says so when every figure was measured', async () => {
    const result = await run(['fine']);
    expect(result.exitCode).toBe(0);
    expect(result.out).toContain('fake query: 1.50 ms vs 3.00 ms (fake reference) ratio 0.50×');
    expect(result.out).toContain('Every figure and reference was measured.');
    expect(result.err).toBe('');
  });

  it('exits 0 when a figure is no speed on this hardware, and says so in the summary', async () => {
    const result = await run(['software']);
    expect(result.exitCode).toBe(0);
    expect(result.out).toContain('NOT MEASURED as speed fake WebGPU row: fake software adapter');
    expect(result.out).toContain('NOT MEASURED as speed on this machine (its hardware, not a gap): 1 figure');
    expect(result.out).toContain('Every other figure and reference was measured.');
    expect(result.err).toBe('');
  });

  it('exits non-zero with the summary on stderr when a figure could not be measured', async () => {
    const result = await run(['fine', 'gap']);
    expect(result.exitCode).toBe(EXIT_INCOMPLETE);
    expect(result.out).toContain('NOT MEASURED fake build: no fake model');
    expect(result.err).toContain('NOT MEASURED: 1 figure, 0 references\n  gap: fake build — no fake model');
    expect(result.out + result.err).not.toContain('NaN');
  });

  it('accepts the gap as a warning with the flag or the variable', async () => {
    for (const [args, env] of [
      [['gap', ALLOW_MISSING_FLAG], {}],
      [['gap'], { [ALLOW_MISSING_ENV]: '1' }],
    ] as const) {
      const result = await run([...args], env);
      expect(result.exitCode).toBe(0);
      expect(result.err).toContain('WARNING — not measured');
    }
  });

  it('runs the sections after one that threw, then fails whatever is allowed', async () => {
    const result = await run(['broken', 'fine', ALLOW_MISSING_FLAG]);
    expect(result.ran).toEqual(['broken', 'fine']);
    expect(result.exitCode).toBe(EXIT_INCOMPLETE);
    expect(result.err).toContain('FAILED broken: fake page crashed');
    expect(result.err).toContain('FAILED: 1 section\n  broken: fake page crashed');
  });

  it('runs every section, in order, when none is named', async () => {
    const result = await run([]);
    expect(result.ran).toEqual(['fine', 'gap', 'software', 'broken']);
  });

  it('runs nothing for an unknown section or option', async () => {
    for (const args of [
      ['fine', 'nope'],
      ['fine', '--allow-missing'],
    ]) {
      const result = await run(args);
      expect(result.exitCode).toBe(EXIT_USAGE);
      expect(result.ran).toEqual([]);
      expect(result.err).toMatch(/^Unknown (bench section "nope"|option "--allow-missing")/);
    }
  });
});
