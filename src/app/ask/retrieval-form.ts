/**
 * The Ask panel's retrieval options as form fields: which fields each mode has, what they are called, how a
 * typed value is checked against the open tree, and how a change carries over to the fields that depend on it.
 * Also the words for a passage's layer. Pure and tested in Node.
 */
import type { RetrievalMode } from '../modes';
import type { RetrievalSettings } from '../state/types';

/** A numeric option of `RetrievalSettings`. */
export type RetrievalField = Exclude<keyof RetrievalSettings, 'mode' | 'search' | 'rerank' | 'distinct'>;

/** How the panel shows one field. */
export interface FieldSpec {
  field: RetrievalField;
  /** Visible label, short. */
  label: string;
  /** Accessible name when `label` alone would be ambiguous across modes; otherwise `label`. */
  name: string;
  /** One-line hint under the field. */
  hint: string;
}

/** The fields of each mode, in the order the panel shows them. */
export const MODE_FIELDS: Readonly<Record<RetrievalMode, readonly FieldSpec[]>> = Object.freeze({
  collapsed: [
    {
      field: 'collapsedMaxTokens',
      label: 'Max tokens',
      name: 'Collapsed tree max tokens',
      hint: 'Best nodes of every layer until this many tokens (paper: 2,000).',
    },
  ],
  traversal: [
    {
      field: 'traversalTopK',
      label: 'Top-k',
      name: 'Top-k',
      hint: 'Nodes kept per layer (by keywords: at least; every branch holding a best passage is walked).',
    },
    {
      field: 'traversalStartLayer',
      label: 'Start layer',
      name: 'Start layer',
      hint: 'Layer to start from.',
    },
    {
      field: 'traversalLayers',
      label: 'Layers',
      name: 'Layers',
      hint: 'Layers to descend, start included.',
    },
    {
      field: 'traversalMaxTokens',
      label: 'Max tokens',
      name: 'Tree traversal max tokens',
      hint: 'By keywords: the passages read at the end of the walk, until this many tokens.',
    },
  ],
  leaves: [
    {
      field: 'leavesMaxTokens',
      label: 'Max tokens',
      name: 'Leaves only max tokens',
      hint: 'Best leaves until this many tokens (the paper’s baseline).',
    },
  ],
});

/** Inclusive bounds of a field for the open tree. */
export interface FieldBounds {
  min: number;
  /** Undefined: no upper bound. */
  max?: number;
}

/** The bounds of `field` given the other settings and the open tree's top layer. */
export function fieldBounds(
  field: RetrievalField,
  settings: RetrievalSettings,
  maxLayer: number,
): FieldBounds {
  switch (field) {
    case 'traversalStartLayer':
      return { min: 0, max: Math.max(0, maxLayer) };
    case 'traversalLayers':
      return { min: 1, max: Math.max(0, settings.traversalStartLayer) + 1 };
    default:
      return { min: 1 };
  }
}

/**
 * Why `raw` (the field's text as typed) is not a valid value of `field`, as a sentence; undefined when valid.
 * Values must be whole numbers within `fieldBounds`.
 */
export function fieldError(
  field: RetrievalField,
  raw: string,
  settings: RetrievalSettings,
  maxLayer: number,
): string | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return 'Enter a number.';
  const value = Number(trimmed);
  if (!Number.isInteger(value)) return 'Enter a whole number.';
  const { min, max } = fieldBounds(field, settings, maxLayer);
  if (value >= min && (max === undefined || value <= max)) return undefined;
  switch (field) {
    case 'traversalStartLayer':
      return maxLayer <= 0
        ? 'This tree has only leaves: the start layer is 0.'
        : `Between 0 (the leaves) and ${max} (the top layer).`;
    case 'traversalLayers':
      return max === 1
        ? 'Starting at the leaves, only 1 layer can be visited.'
        : `Between 1 and ${max} (from layer ${max! - 1} down to the leaves).`;
    case 'traversalTopK':
      return 'At least 1 node per layer.';
    default:
      return 'At least 1 token.';
  }
}

/** Every field error of every mode for the stored settings, e.g. before "Compare modes" runs them all. */
export function settingsErrors(
  settings: RetrievalSettings,
  maxLayer: number,
): { mode: RetrievalMode; spec: FieldSpec; message: string }[] {
  const errors: { mode: RetrievalMode; spec: FieldSpec; message: string }[] = [];
  for (const [mode, specs] of Object.entries(MODE_FIELDS) as [RetrievalMode, readonly FieldSpec[]][]) {
    for (const spec of specs) {
      const message = fieldError(spec.field, String(settings[spec.field]), settings, maxLayer);
      if (message !== undefined) errors.push({ mode, spec, message });
    }
  }
  return errors;
}

/**
 * `settings` with `field` set to `value`. Moving the start layer keeps the traversal's depth meaningful: a
 * traversal that went down to the leaves still does, and one that went deeper than the new start allows is
 * cut to end at the leaves.
 */
export function withField(
  settings: RetrievalSettings,
  field: RetrievalField,
  value: number,
): RetrievalSettings {
  const next = { ...settings, [field]: value };
  if (field === 'traversalStartLayer') {
    const reachedLeaves = settings.traversalLayers >= settings.traversalStartLayer + 1;
    if (reachedLeaves || next.traversalLayers > value + 1) next.traversalLayers = value + 1;
  }
  return next;
}

/** What a passage is, by its layer: "Leaf" or "Layer 2 summary". */
export function layerLabel(layer: number): string {
  return layer === 0 ? 'Leaf' : `Layer ${layer} summary`;
}

/** How many passages come from each layer, lowest layer first. */
export function countByLayer(passages: readonly { layer: number }[]): { layer: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const p of passages) counts.set(p.layer, (counts.get(p.layer) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([layer, count]) => ({ layer, count }));
}

/** "5 leaves · 2 layer-1 summaries", or "No passages". */
export function layerCountsText(passages: readonly { layer: number }[]): string {
  const parts = countByLayer(passages).map(({ layer, count }) =>
    layer === 0
      ? `${count} ${count === 1 ? 'leaf' : 'leaves'}`
      : `${count} layer-${layer} ${count === 1 ? 'summary' : 'summaries'}`,
  );
  return parts.length === 0 ? 'No passages' : parts.join(' · ');
}
