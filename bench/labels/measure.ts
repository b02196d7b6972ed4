/**
 * Figures of how well a tree's topic labels tell its summaries apart (`npm run bench labels`,
 * docs/tree-view.md). A person reads a label beside its siblings (the children of one summary, shown side by
 * side when it is zoomed to) and under its parent (whose label the breadcrumb shows), and the root layer at
 * Fit; so:
 *
 * - **lead share**: per layer, the share of its labels that open with the layer's most common first term
 *   (the KJV's "LORD"); over all layers, weighted by labels;
 * - **root lead share**: the same for the top layer alone (what the view shows at Fit);
 * - **sibling lead clash**: the share of labels whose first term opens a sibling's label too;
 * - **parent repeats**: the share of labels with a word that a parent's label has (the breadcrumb says it);
 * - **distinct terms among siblings**: per group of siblings, distinct words over all words of their labels
 *   (1 = no word twice); the mean over groups;
 * - **sibling accuracy**: for each leaf under a summary that has siblings, whether the summary's own label
 *   matches the leaf's text more often than any sibling's label does (a label that says what sets its node
 *   apart finds that node's passages); the mean over (summary, leaf) pairs, beside chance (1 / group size);
 * - **leaf coverage**: per summary, the share of its leaves that contain a word of its label (a guard: a label
 *   of rare words tells siblings apart but describes few passages); the mean over summaries.
 *
 * Words are compared by their Porter stems (as labels merge them), titles ("Mr.", "Lady") left out.
 */
import { stemmer } from 'stemmer';
import type { LabelNode } from '../../src/core/labels';
import { NAME_TITLES } from '../../src/core/text';

/** The figures of one tree's labels. */
export interface LabelFigures {
  summaries: number;
  /** Per layer (index = layer, 0 unused): [most common first term, its share of the layer's labels]. */
  leadByLayer: [string, number][];
  /** Per layer (index = layer, 0 unused): [most common word of its labels, share of labels holding it]. */
  wordByLayer: [string, number][];
  leadShare: number;
  wordShare: number;
  rootLeadShare: number;
  siblingLeadClash: number;
  parentRepeats: number;
  siblingDistinct: number;
  siblingAccuracy: number;
  /** Chance level of sibling accuracy: the mean of 1 / group size over the same pairs. */
  siblingChance: number;
  leafCoverage: number;
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu;

const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    const lower = word
      .toLowerCase()
      .replace(/\u2019/g, "'")
      .replace(/'s$/, '');
    s = NAME_TITLES.has(lower) ? '' : stemmer(lower);
    stems.set(word, s);
  }
  return s;
}

/** The stems of a label term's words, titles left out ("Mr. Darcy" → ["darci"]). */
function termStems(term: string): string[] {
  return [...term.matchAll(WORD)].map((m) => stem(m[0])).filter(Boolean);
}

/** How often a term (its stems in a row) occurs in a leaf's stem sequence. */
function occurrences(leaf: readonly string[], term: readonly string[]): number {
  if (term.length === 0) return 0;
  let n = 0;
  for (let i = 0; i + term.length <= leaf.length; i++) {
    let k = 0;
    while (k < term.length && leaf[i + k] === term[k]) k++;
    if (k === term.length) n++;
  }
  return n;
}

/** The item most lists hold, and the share of lists holding it (ties: the first met). */
function mostCommon(lists: readonly string[][], total: number): [string, number] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1);
  let best: [string, number] = ['', 0];
  for (const [item, n] of counts) if (n > best[1]) best = [item, n];
  return [best[0], total > 0 ? best[1] / total : 0];
}

/** Computes the figures (see the module comment). `labels[id]` is node id's label (undefined for leaves). */
export function labelFigures(
  nodes: readonly LabelNode[],
  labels: readonly (readonly string[] | undefined)[],
): LabelFigures {
  const top = Math.max(...nodes.map((n) => n.layer));
  const summaries = nodes.filter((n) => n.layer > 0);
  const words = (id: number) => new Set((labels[id] ?? []).flatMap(termStems));
  const lead = (id: number) => (labels[id]?.[0] ?? '').toLowerCase();

  // Lead and word shares per layer; their means over the layers of more than one summary.
  const leadByLayer: [string, number][] = [['', 0]];
  const wordByLayer: [string, number][] = [['', 0]];
  let leadSum = 0;
  let wordSum = 0;
  let shared = 0;
  for (let layer = 1; layer <= top; layer++) {
    const ids = summaries.filter((n) => n.layer === layer).map((n) => n.id);
    leadByLayer.push(
      mostCommon(
        ids.map((id) => [lead(id)]),
        ids.length,
      ),
    );
    wordByLayer.push(
      mostCommon(
        ids.map((id) => [...words(id)]),
        ids.length,
      ),
    );
    if (ids.length > 1) {
      leadSum += leadByLayer[layer][1];
      wordSum += wordByLayer[layer][1];
      shared++;
    }
  }

  // Parents and sibling groups (the children of one summary in its children's layer; the top layer is one
  // group of its own).
  const parents: number[][] = nodes.map(() => []);
  const groups: number[][] = [];
  for (const node of summaries) {
    const group = node.children.filter((c) => nodes[c].layer === node.layer - 1 && nodes[c].layer > 0);
    for (const c of node.children) parents[c].push(node.id);
    if (group.length > 1) groups.push(group);
  }
  const topIds = summaries.filter((n) => n.layer === top).map((n) => n.id);
  if (topIds.length > 1) groups.push(topIds);

  let repeats = 0;
  let withParent = 0;
  for (const node of summaries) {
    if (parents[node.id].length === 0) continue;
    withParent++;
    const above = new Set(parents[node.id].flatMap((p) => [...words(p)]));
    if ([...words(node.id)].some((w) => above.has(w))) repeats++;
  }

  let clashes = 0;
  let clashTotal = 0;
  let distinct = 0;
  for (const group of groups) {
    const all = group.flatMap((id) => [...words(id)]);
    distinct += all.length > 0 ? new Set(all).size / all.length : 1;
    for (const id of group) {
      clashTotal++;
      if (group.some((o) => o !== id && lead(o) === lead(id))) clashes++;
    }
  }

  // Leaves below each summary, and each leaf's stems.
  const below: number[][] = nodes.map((n) => (n.layer === 0 ? [n.id] : []));
  for (const node of [...summaries].sort((a, b) => a.layer - b.layer)) {
    const set = new Set<number>();
    for (const c of node.children) for (const leaf of below[c]) set.add(leaf);
    below[node.id] = [...set];
  }
  const leafStems = new Map<number, string[]>();
  const stemsOf = (leaf: number) => {
    let s = leafStems.get(leaf);
    if (s === undefined) {
      s = [...nodes[leaf].text.matchAll(WORD)].map((m) => stem(m[0]));
      leafStems.set(leaf, s);
    }
    return s;
  };
  const termsOf = (id: number) => (labels[id] ?? []).map(termStems);
  const matches = (leaf: number, id: number) =>
    termsOf(id).reduce((sum, term) => sum + occurrences(stemsOf(leaf), term), 0);

  let hits = 0;
  let pairs = 0;
  let chance = 0;
  for (const group of groups) {
    for (const id of group) {
      for (const leaf of below[id]) {
        const own = matches(leaf, id);
        pairs++;
        chance += 1 / group.length;
        if (group.every((o) => o === id || matches(leaf, o) < own)) hits++;
      }
    }
  }

  let coverage = 0;
  for (const node of summaries) {
    const leaves = below[node.id];
    const covered = leaves.filter((leaf) => termsOf(node.id).some((t) => occurrences(stemsOf(leaf), t) > 0));
    coverage += leaves.length > 0 ? covered.length / leaves.length : 0;
  }

  return {
    summaries: summaries.length,
    leadByLayer,
    wordByLayer,
    leadShare: shared > 0 ? leadSum / shared : 0,
    wordShare: shared > 0 ? wordSum / shared : 0,
    rootLeadShare: leadByLayer[top][1],
    siblingLeadClash: clashTotal > 0 ? clashes / clashTotal : 0,
    parentRepeats: withParent > 0 ? repeats / withParent : 0,
    siblingDistinct: groups.length > 0 ? distinct / groups.length : 1,
    siblingAccuracy: pairs > 0 ? hits / pairs : 0,
    siblingChance: pairs > 0 ? chance / pairs : 0,
    leafCoverage: summaries.length > 0 ? coverage / summaries.length : 0,
  };
}
