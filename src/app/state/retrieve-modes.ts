/**
 * One question's retrieval in each asked mode, reranked by the cross-encoder when the settings ask for it, with
 * the notes the page shows beside the passages (no keyword matched, a reranker that could not load, where it ran).
 */
import type { RaptorTree } from '../../core/types';
import { embedWorker } from '../../client/workers';
import type { RetrievalMode } from '../modes';
import { rerankedOnNote } from '../build/devices-text';
import type { AppSettings } from '../settings/app-settings';
import { errorMessage, isCancel } from './messages';
import { retrieveOptionsFor } from './retrieval-options';
import type { ModeResult, RetrievalSettings } from './types';

/** "None of the question's words occur in this tree": keyword search found nothing to rank. */
export const NO_KEYWORDS_NOTE =
  'None of the words of the question occur in this tree, so its passages are ranked by meaning alone.';

/** What `retrieveInModes` searches. */
export interface ModesRequest {
  tree: RaptorTree;
  /** Embeds the question (or gives a node's embedding); runs while retrieval loads. */
  query: () => Promise<Float32Array>;
  modes: readonly RetrievalMode[];
  retrieval: RetrievalSettings;
  settings: AppSettings;
  /** The text searched for keywords and reranked against; none for retrieval by a node's embedding. */
  search?: string;
}

/** The passages of each mode and the notes about them. */
export interface ModesFound {
  perMode: Partial<Record<RetrievalMode, ModeResult>>;
  notes: Set<string>;
}

/** Retrieves in each mode of the request; a reranker that cannot load leaves the first ranking, with a note. */
export async function retrieveInModes(request: ModesRequest): Promise<ModesFound> {
  const { tree, modes, retrieval: s, settings, search: text } = request;
  // Loaded on the first question: retrieval counts tokens with the cl100k tables (about 1 MB).
  const [{ retrieve, retrieveReranked }, vector] = await Promise.all([
    import('../../core/search/retrieve'),
    request.query(),
  ]);
  const perMode: Partial<Record<RetrievalMode, ModeResult>> = {};
  const notes = new Set<string>();
  let rerank = s.rerank && text !== undefined;
  const rerankerChoice = { model: settings.reranker.model, device: settings.embedding.device };
  const reranker = {
    score: (texts: string[]) => embedWorker().rerank(text ?? '', texts, rerankerChoice),
  };
  for (const mode of modes) {
    const options = retrieveOptionsFor(mode, s, text);
    let r;
    try {
      r = rerank ? await retrieveReranked(tree, vector, options, reranker) : retrieve(tree, vector, options);
    } catch (error) {
      if (!rerank || isCancel(error)) throw error;
      // A reranker that cannot load (no hub, a wrong id) leaves the first ranking: said, not fatal.
      notes.add(`The passages were not reranked: ${errorMessage(error)}`);
      rerank = false;
      r = retrieve(tree, vector, options);
    }
    if (r.keywordMatches === 0) notes.add(NO_KEYWORDS_NOTE);
    perMode[mode] = {
      mode,
      tokens: r.tokens,
      passages: r.nodes.map((n) => ({
        ...n,
        tokens: tree.nodes[n.id].tokens,
        text: tree.nodes[n.id].text,
        label: tree.nodes[n.id].label,
      })),
    };
    if (r.route) perMode[mode].route = r.route;
  }
  // Where the cross-encoder ran (it is loaded by now: this only reads its record). Should that read fail,
  // only the note is lost, never the question.
  if (rerank) {
    const ranked = await embedWorker()
      .loadReranker(rerankerChoice)
      .catch(() => undefined);
    if (ranked) notes.add(rerankedOnNote(ranked));
  }
  return { perMode, notes };
}
