/** Words for a node: its kind, who selected it, and shortened previews for tooltips and lists. Pure, tested in Node. */
import { MODE_LABELS } from '../modes';
import type { NodeMark } from './selection';

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

/** "1 parent", "3 parents". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
