/**
 * The three retrieval modes as the UI names and colours them. The colours are the Okabe–Ito palette's blue,
 * orange and bluish green (distinguishable with every common colour-vision deficiency), shaded per theme for
 * ≥ 3:1 contrast against the page (WCAG non-text contrast) and ≥ 4.5:1 for rank numbers written on them;
 * theme.css defines them as CSS variables.
 */
import type { RetrievedNode } from '../core/search';

/** A retrieval mode, as `retrieve` in src/core/search/retrieve.ts names it. */
export type RetrievalMode = 'collapsed' | 'traversal' | 'leaves';

/** Every mode, in the order the UI lists them (legends, rings, `data-selected`). */
export const RETRIEVAL_MODES: readonly RetrievalMode[] = Object.freeze(['collapsed', 'traversal', 'leaves']);

/** What the UI calls each mode. */
export const MODE_LABELS: Readonly<Record<RetrievalMode, string>> = Object.freeze({
  collapsed: 'Collapsed tree',
  traversal: 'Tree traversal',
  leaves: 'Leaves only',
});

/** Per-theme colour of a mode, as hex (the values theme.css gives its `--mode-*` variables). */
export interface ModeColor {
  light: string;
  dark: string;
}

/** Each mode's colour in the light and dark themes (Okabe–Ito hues; light-theme shades darkened for contrast). */
export const MODE_COLORS: Readonly<Record<RetrievalMode, ModeColor>> = Object.freeze({
  collapsed: { light: '#0072b2', dark: '#56b4e9' },
  traversal: { light: '#a36100', dark: '#e69f00' },
  leaves: { light: '#007f64', dark: '#2dbe94' },
});

/** The CSS variable holding a mode's colour in the current theme, e.g. `var(--mode-collapsed)`. */
export function modeColorVar(mode: RetrievalMode): string {
  return `var(--mode-${mode})`;
}

/** The CSS variable holding the text colour to write on a mode's colour (rank badges). */
export function modeInkVar(mode: RetrievalMode): string {
  return `var(--mode-${mode}-ink)`;
}

/** One node a mode selected; its rank is its index in the mode's list + 1. */
export type SelectedNode = Pick<RetrievedNode, 'id' | 'layer' | 'score'>;

/** What each mode selected for one question, each list in rank order (best first). */
export type ModeSelections = Partial<Record<RetrievalMode, readonly SelectedNode[]>>;
