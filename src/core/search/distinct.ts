/**
 * No sentence paid for twice. An extractive summary is made of its descendants' own sentences, so a context
 * holding the summary and the leaf it copied from holds those sentences twice, and the token budget pays for
 * both. `ContextSentences` tracks the sentences already in a context and gives, for each further node, the
 * part that is new: its sentences that are not already there in a RELATED node (one whose leaves overlap its
 * own: an ancestor, a descendant, or a summary of some of the same text). Two unrelated leaves that happen to
 * hold the same sentence ("Yes." in two chapters) are different places in the text and both stay.
 *
 * Sentences are compared by their text with runs of white space made one space (`sentenceSpans`, the splitter
 * the extractive summariser cut them with). Abstractive (LLM) summaries share no sentence with their leaves,
 * so on such trees nothing is ever left out.
 */
import { sentenceSpans, type TextSpan } from '../text';
import type { TreeNode } from '../types';

/** The part of a node that enters the context. */
export interface NewPart {
  /** The node's text when nothing was left out; else its new sentences joined by one space ('' when none). */
  text: string;
  /** Sentences left out because a related node in the context already holds them. */
  omitted: number;
}

/** Per tree, the leaves under each node, computed when first needed. */
const leafSets = new WeakMap<readonly TreeNode[], Map<number, ReadonlySet<number>>>();

/** The ids of the leaves under node `id` (itself for a leaf), memoised per tree. */
export function leavesUnder(nodes: readonly TreeNode[], id: number): ReadonlySet<number> {
  let memo = leafSets.get(nodes);
  if (!memo) leafSets.set(nodes, (memo = new Map()));
  const known = memo.get(id);
  if (known) return known;
  const node = nodes[id];
  let leaves: ReadonlySet<number>;
  if (node.children.length === 0) leaves = new Set([id]);
  else {
    const set = new Set<number>();
    for (const child of node.children) for (const leaf of leavesUnder(nodes, child)) set.add(leaf);
    leaves = set;
  }
  memo.set(id, leaves);
  return leaves;
}

function overlaps(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return true;
  return false;
}

const WHITE_SPACE = /\s+/g;

/** A sentence's comparison key: its text with every run of white space one space. */
function keyOf(text: string, span: TextSpan): string {
  return text.slice(span.start, span.end).replace(WHITE_SPACE, ' ');
}

/** The sentences of one context being filled (see the module comment). */
export class ContextSentences {
  /** Sentence key → the nodes in the context that hold it. */
  private readonly holders = new Map<string, number[]>();

  constructor(private readonly nodes: readonly TreeNode[]) {}

  /** What node `id` would add to the context now. */
  newPart(id: number): NewPart {
    const text = this.nodes[id].text;
    const spans = sentenceSpans(text);
    const kept: string[] = [];
    let omitted = 0;
    for (const span of spans) {
      if (this.heldByRelative(id, keyOf(text, span))) omitted++;
      else kept.push(text.slice(span.start, span.end));
    }
    return { text: omitted === 0 ? text : kept.join(' '), omitted };
  }

  /** Records that node `id` entered the context (all its sentences count as held by it). */
  add(id: number): void {
    const text = this.nodes[id].text;
    for (const span of sentenceSpans(text)) {
      const key = keyOf(text, span);
      const list = this.holders.get(key);
      if (list) list.push(id);
      else this.holders.set(key, [id]);
    }
  }

  private heldByRelative(id: number, key: string): boolean {
    const list = this.holders.get(key);
    if (!list) return false;
    const own = leavesUnder(this.nodes, id);
    return list.some((other) => overlaps(own, leavesUnder(this.nodes, other)));
  }
}
