import { describe, expect, it } from 'vitest';
import {
  ALLOW_MISSING_ENV,
  ALLOW_MISSING_FLAG,
  allowsMissing,
  EXIT_INCOMPLETE,
  gapOf,
  gapsOf,
  notSpeedOf,
  outcome,
} from '../../bench/gaps';
import { notMeasured, notMeasuredAsSpeed, type BenchLine, type BenchRow } from '../../bench/lines';
import { formatRow } from '../../bench/report';

const measured: BenchRow = {
  name: 'GMM BIC sweep, N=1000',
  value: 2.5,
  unit: 's',
  reference: 5,
  referenceLabel: 'scikit-learn 1.2.1 GaussianMixture',
  higherIsBetter: false,
  target: 0.5,
  note: 'chosen k: ours 8, scikit-learn 8 (same)',
};

/** Every shape of line that once printed a number for something not measured. */
const unmeasured: Record<string, BenchLine> = {
  'a skipped figure': notMeasured('Whole build, 78k tokens', 'no Chromium at /nowhere'),
  'an old-style NaN row': {
    name: 'Whole build',
    value: NaN,
    unit: 's',
    higherIsBetter: false,
    referenceLabel: 'skipped: make_minilm_random.py failed',
  },
  'a reference that could not run': {
    ...measured,
    reference: undefined,
    referenceLabel: undefined,
    referenceMissing: 'no scikit-learn in python3',
  },
  'a NaN reference': { ...measured, reference: NaN },
  'a row without reference or reason': { ...measured, reference: undefined, referenceLabel: 'unavailable' },
};

describe('formatRow', () => {
  it('prints a measured row with its reference, ratio and verdict', () => {
    expect(formatRow(measured)).toBe(
      'GMM BIC sweep, N=1000: 2.50 s vs 5.00 s (scikit-learn 1.2.1 GaussianMixture) ratio 0.50× target ≤ 0.5× MET' +
        ' — chosen k: ours 8, scikit-learn 8 (same)',
    );
    expect(formatRow({ ...measured, value: 3 })).toContain('ratio 0.60× target ≤ 0.5× NOT MET');
  });

  it('prints a row without a reference by design as such, and it is no gap', () => {
    const row: BenchRow = {
      name: 'App: open a tree',
      value: 120,
      unit: 'ms',
      higherIsBetter: false,
      noReference: 'the whole app path',
    };
    expect(formatRow(row)).toBe('App: open a tree: 120 ms (no same-run reference: the whole app path)');
    expect(gapOf(row)).toBeUndefined();
  });

  for (const [kind, line] of Object.entries(unmeasured)) {
    it(`never prints a number for ${kind}, and says NOT MEASURED`, () => {
      const text = formatRow(line);
      expect(text).toContain('NOT MEASURED');
      expect(text).not.toMatch(/NaN s|reference: unavailable|undefined/);
      expect(gapOf(line)).toBeDefined();
    });
  }

  it('keeps our measured figure beside a reference that could not be measured', () => {
    expect(formatRow(unmeasured['a reference that could not run'])).toBe(
      'GMM BIC sweep, N=1000: 2.50 s — reference NOT MEASURED: no scikit-learn in python3' +
        ' — chosen k: ours 8, scikit-learn 8 (same)',
    );
  });

  it('prints a skipped figure without any number', () => {
    expect(formatRow(unmeasured['a skipped figure'])).toBe(
      'NOT MEASURED Whole build, 78k tokens: no Chromium at /nowhere',
    );
  });
});

describe('gapOf and gapsOf', () => {
  it('tells a missing figure from a missing reference, with the reason the line gave', () => {
    expect(gapOf(unmeasured['a skipped figure'])).toEqual({
      kind: 'figure',
      what: 'Whole build, 78k tokens',
      reason: 'no Chromium at /nowhere',
    });
    expect(gapOf(unmeasured['an old-style NaN row'])).toEqual({
      kind: 'figure',
      what: 'Whole build',
      reason: 'NaN instead of a figure (skipped: make_minilm_random.py failed)',
    });
    expect(gapOf(unmeasured['a reference that could not run'])).toEqual({
      kind: 'reference',
      what: measured.name,
      reason: 'no scikit-learn in python3',
    });
    expect(gapOf(unmeasured['a row without reference or reason'])?.reason).toBe(
      'no reference was measured: unavailable',
    );
    expect(gapOf(measured)).toBeUndefined();
  });

  it('lists only the lines with gaps, in order, with their section', () => {
    const lines = [measured, unmeasured['a skipped figure'], measured, unmeasured['a NaN reference']];
    expect(gapsOf('build', lines).map((g) => [g.section, g.kind])).toEqual([
      ['build', 'figure'],
      ['build', 'reference'],
    ]);
  });
});

describe('allowsMissing', () => {
  it('accepts gaps only when asked: the flag, or the variable set to 1, true or yes', () => {
    expect(allowsMissing([], {})).toBe(false);
    expect(allowsMissing(['build'], { [ALLOW_MISSING_ENV]: '0' })).toBe(false);
    expect(allowsMissing(['build'], { [ALLOW_MISSING_ENV]: '' })).toBe(false);
    expect(allowsMissing(['build', ALLOW_MISSING_FLAG], {})).toBe(true);
    for (const value of ['1', 'true', 'YES']) {
      expect(allowsMissing([], { [ALLOW_MISSING_ENV]: value })).toBe(true);
    }
  });
});

describe('outcome', () => {
  const gaps = [
    ...gapsOf('build', [unmeasured['a skipped figure']]),
    ...gapsOf('gmm', [unmeasured['a reference that could not run']]),
  ];

  it('passes when everything was measured', () => {
    expect(outcome([], [], false)).toEqual({
      exitCode: 0,
      summary: ['Every figure and reference was measured.'],
    });
  });

  it('fails with a summary of every gap and why, and how to fix or accept it', () => {
    const result = outcome(gaps, [], false);
    expect(result.exitCode).toBe(EXIT_INCOMPLETE);
    expect(result.summary[0]).toBe('NOT MEASURED: 1 figure, 1 reference');
    expect(result.summary[1]).toBe('  build: Whole build, 78k tokens — no Chromium at /nowhere');
    expect(result.summary[2]).toBe(
      '  gmm: reference of "GMM BIC sweep, N=1000" — no scikit-learn in python3',
    );
    const advice = result.summary.at(-1)!;
    expect(advice).toContain('bash scripts/python-env.sh');
    expect(advice).toContain(ALLOW_MISSING_FLAG);
    expect(advice).toContain(`${ALLOW_MISSING_ENV}=1`);
  });

  it('turns the gaps into a warning when they are allowed', () => {
    const result = outcome(gaps, [], true);
    expect(result.exitCode).toBe(0);
    expect(result.summary[0]).toMatch(/^WARNING — not measured \(accepted by .*\): 1 figure, 1 reference$/);
    expect(result.summary).toHaveLength(3);
  });

  it('lists figures that are no speed on this hardware first, and they change neither the status nor the gaps', () => {
    const line = notMeasuredAsSpeed('Embed, WebGPU (google swiftshader) fp32', 'a software adapter');
    expect(formatRow(line)).toBe(
      'NOT MEASURED as speed Embed, WebGPU (google swiftshader) fp32: a software adapter',
    );
    const notSpeed = notSpeedOf('embed', [measured, line]);
    expect(outcome([], [], false, notSpeed)).toEqual({
      exitCode: 0,
      summary: [
        'NOT MEASURED as speed on this machine (its hardware, not a gap): 1 figure',
        '  embed: Embed, WebGPU (google swiftshader) fp32 — a software adapter',
        'Every other figure and reference was measured.',
      ],
    });
    const withGaps = outcome(gaps, [], false, notSpeed);
    expect(withGaps.exitCode).toBe(EXIT_INCOMPLETE);
    expect(withGaps.summary[2]).toBe('NOT MEASURED: 1 figure, 1 reference');
  });

  it('fails on a section that threw, even when gaps are allowed', () => {
    const result = outcome([], [{ section: 'embed', error: 'The page crashed' }], true);
    expect(result.exitCode).toBe(EXIT_INCOMPLETE);
    expect(result.summary).toEqual([
      'FAILED: 1 section',
      '  embed: The page crashed',
      `A section failed (exit status ${EXIT_INCOMPLETE}): its error is printed above.`,
    ]);
  });
});
