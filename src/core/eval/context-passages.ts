/**
 * The passages an evaluation's answering model reads for one retrieval, as the app's answering model reads them:
 * the context in its order (reading order for passages by sentence, `QuestionModeResult.read`; otherwise the
 * nodes as chosen), each node's text or the sentences of it that entered, after where it sits in the documents
 * ("(Chapter 34 · 54%) …") when that is known.
 */
import { excerptText, placeOfNode, placeText } from '../search';
import { sentenceSpans } from '../text';
import type { RaptorTree } from '../types';
import type { QuestionModeResult } from './report';

/** The texts of one retrieval's context, in order (see the module comment). */
export function contextPassages(
  tree: Pick<RaptorTree, 'nodes' | 'documents'>,
  result: Pick<QuestionModeResult, 'nodes' | 'read'>,
): string[] {
  const parts: { id: number; sentences?: number[] }[] = result.read ?? result.nodes.map((id) => ({ id }));
  const several = tree.documents.length > 1;
  return parts.map(({ id, sentences }) => {
    const text = tree.nodes[id].text;
    const body = sentences ? excerptText(text, sentenceSpans(text), sentences) : text;
    const place = placeOfNode(tree, id);
    return place ? `(${placeText(place, several)}) ${body}` : body;
  });
}
