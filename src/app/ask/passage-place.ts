/**
 * Where a passage sits, as the answering model reads it and the passage list shows it: "Chapter 34 · 54%" (the
 * section and the share of the book before it; with the document's name first in a tree of several), from the
 * core's `placeOfNode`. Pure, tested in Node.
 */
import { placeOfNode, placeText } from '../../core/search';
import type { RaptorTree } from '../../core/types';

/** "Chapter 34 · 54%", or undefined when the node's place is unknown (a tree made by the official code). */
export function passagePlace(tree: Pick<RaptorTree, 'nodes' | 'documents'>, id: number): string | undefined {
  const place = placeOfNode(tree, id);
  return place ? placeText(place, tree.documents.length > 1) : undefined;
}

/**
 * The text a passage puts before the model: what entered the context (its excerpt, or the whole node), after
 * its place in parentheses when known: "(Chapter 34 · 54%) It is a truth …".
 */
export function placedText(
  tree: Pick<RaptorTree, 'nodes' | 'documents'>,
  passage: { id: number; text: string; excerpt?: { text: string } },
): string {
  const text = passage.excerpt?.text ?? passage.text;
  const place = passagePlace(tree, passage.id);
  return place ? `(${place}) ${text}` : text;
}
