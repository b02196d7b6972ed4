/**
 * Words for a node: the sentence a screen reader hears when the node gets keyboard focus, and shortened
 * previews for tooltips and lists. Pure functions, tested in Node.
 */
import type { TreeNode } from '../../core/types';
import { MODE_LABELS } from '../modes';
import type { NodeMark } from './selection';

/** Characters of a node's text read out on focus (the inspector shows all of it). */
export const SPOKEN_TEXT_CHARS = 240;

/** Score decimals shown to the user: enough to tell close cosine similarities apart. */
export const SCORE_DECIMALS = 3;

/**
 * `text` cut to at most `maxChars` characters (whitespace collapsed), at a word boundary when one is near the
 * end, with an ellipsis when anything was cut. Never splits a surrogate pair.
 */
export function truncateText(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  let end = Math.max(0, maxChars - 1);
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const space = flat.lastIndexOf(' ', end);
  // Cut at the last space only when it does not throw away more than a fifth of the preview.
  if (space > end * 0.8) end = space;
  return `${flat.slice(0, end).trimEnd()}…`;
}

/** "Collapsed tree rank 3, Tree traversal rank 1", or '' for no marks. */
export function marksSummary(marks: readonly NodeMark[] | undefined): string {
  return (marks ?? []).map((m) => `${MODE_LABELS[m.mode]} rank ${m.rank}`).join(', ');
}

/** What a node is: "Leaf" or "Summary, layer 2". */
export function nodeKind(layer: number): string {
  return layer === 0 ? 'Leaf' : `Summary, layer ${layer}`;
}

/** The sentence read when a node gets keyboard focus. */
export function describeNode(
  node: Pick<TreeNode, 'id' | 'layer' | 'text' | 'children'>,
  marks: readonly NodeMark[] | undefined,
  parentCount: number,
): string {
  const selected = marks === undefined ? 'Not selected' : `Selected by ${marksSummary(marks)}`;
  const links = `${count(parentCount, 'parent')}, ${count(node.children.length, 'child', 'children')}`;
  return `Node ${node.id}. ${nodeKind(node.layer)}. ${selected}. ${links}. ${truncateText(node.text, SPOKEN_TEXT_CHARS)}`;
}

/** "1 parent", "3 parents". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
