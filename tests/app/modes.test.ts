import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODE_COLORS, MODE_LABELS, modeColorVar, RETRIEVAL_MODES } from '../../src/app/modes';

const THEME = readFileSync(new URL('../../src/app/theme.css', import.meta.url), 'utf8');

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The light and dark values of a `light-dark()` variable in theme.css. */
function themeColor(name: string): { light: string; dark: string } {
  const match = new RegExp(`--${name}:\\s*light-dark\\((#[0-9a-f]{6}),\\s*(#[0-9a-f]{6})\\)`).exec(THEME);
  if (match === null) throw new Error(`theme.css has no light-dark() colour --${name}`);
  return { light: match[1], dark: match[2] };
}

describe('retrieval modes', () => {
  it('names the three modes in display order', () => {
    expect(RETRIEVAL_MODES).toEqual(['collapsed', 'traversal', 'leaves']);
    expect(RETRIEVAL_MODES.map((m) => MODE_LABELS[m])).toEqual([
      'Collapsed tree',
      'Tree traversal',
      'Leaves only',
    ]);
    expect(modeColorVar('leaves')).toBe('var(--mode-leaves)');
  });

  it('defines the same colours in theme.css as in MODE_COLORS', () => {
    for (const mode of RETRIEVAL_MODES) expect(themeColor(`mode-${mode}`)).toEqual(MODE_COLORS[mode]);
  });

  it('gives every mode colour 3:1 contrast against the page and surfaces in both themes', () => {
    for (const surface of ['color-bg', 'color-surface']) {
      const bg = themeColor(surface);
      for (const mode of RETRIEVAL_MODES) {
        expect(contrast(MODE_COLORS[mode].light, bg.light)).toBeGreaterThanOrEqual(3);
        expect(contrast(MODE_COLORS[mode].dark, bg.dark)).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('gives rank badge text 4.5:1 contrast on its mode colour', () => {
    for (const mode of RETRIEVAL_MODES) {
      const ink = themeColor(`mode-${mode}-ink`);
      expect(contrast(ink.light, MODE_COLORS[mode].light)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(ink.dark, MODE_COLORS[mode].dark)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
