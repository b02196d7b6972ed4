/**
 * Feedback from the book itself (local context analysis: Xu & Croft 1996; RM3): after the sentences of the best
 * nodes are scored by the question's words, the rarer words that the few best of them share are added to the
 * question, at a low weight, and the sentences are scored again. The evidence of a question whose answer is
 * spread across the book often uses the words of its scene rather than of the question (asked whom Jacob
 * served, the best sentence names Laban, and so does a sentence that says how Laban deceived him), and the best
 * sentences hold them.
 *
 * Chosen on the tuning gold sets only (docs/retrieval.md, fourth round): 5 terms from the 5 best sentences at
 * 0.2 of their weight found the most evidence and lost no kind on any tuning book (Genesis arc 0.483 → 0.517,
 * thematic 0.509 → 0.522; Persuasion and Pride and Prejudice unchanged). More terms, more sentences or another
 * weight found no more evidence overall, and some lost a kind on a book; fed back from the best nodes rather than
 * sentences (RM3 over nodes, an earlier round) it lost.
 */
import { QUESTION_FRAME_TERMS } from './frame-words';

/** Best sentences whose words feed back into the question. */
export const FEEDBACK_SENTENCES = 5;
/** Most terms added to the question. */
export const FEEDBACK_TERMS = 5;
/** Weight of an added term, as a share of its own inverse frequency (a question's term weighs 1 share). */
export const FEEDBACK_WEIGHT = 0.2;
/**
 * Share of the nodes above which a term is too common to add ("said", "time", "little"): its inverse frequency
 * must be at least that of a term held by this share of the nodes.
 */
export const FEEDBACK_MAX_SHARE = 0.05;

/** One of the best sentences: its terms (repeats kept) and its score for the question. */
export interface FeedbackSentence {
  terms: readonly string[];
  score: number;
}

/**
 * `weights` (the question's terms and their weights) with up to `FEEDBACK_TERMS` terms of `best` added, each at
 * `FEEDBACK_WEIGHT` times its inverse frequency (`termWeight`). A term's gain is the sum, over the sentences
 * holding it, of the sentence's score (as a share of the best one's) times the term's inverse frequency over the
 * sentence's length in terms. Terms already asked, question frame words and terms held by more than
 * `FEEDBACK_MAX_SHARE` of the nodes are never added. Ties go by the term, so the result is deterministic. Returns
 * `weights` itself when nothing is added (no sentence scored above 0).
 * @param best the best sentences, best first; only the first `FEEDBACK_SENTENCES` scoring above 0 are read.
 * @param termWeight a term's inverse frequency in the keyword index (0 when no node holds it).
 */
export function withFeedback(
  weights: ReadonlyMap<string, number>,
  best: readonly FeedbackSentence[],
  termWeight: (term: string) => number,
): ReadonlyMap<string, number> {
  const read = best.filter((s) => s.score > 0).slice(0, FEEDBACK_SENTENCES);
  if (read.length === 0) return weights;
  const top = read[0].score;
  const minWeight = Math.log(1 + (1 - FEEDBACK_MAX_SHARE) / FEEDBACK_MAX_SHARE);
  const gain = new Map<string, number>();
  for (const { terms, score } of read) {
    for (const term of terms) {
      if (weights.has(term) || QUESTION_FRAME_TERMS.has(term)) continue;
      const weight = termWeight(term);
      if (weight < minWeight) continue;
      gain.set(term, (gain.get(term) ?? 0) + ((score / top) * weight) / terms.length);
    }
  }
  if (gain.size === 0) return weights;
  const added = [...gain]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, FEEDBACK_TERMS);
  const expanded = new Map(weights);
  for (const [term] of added) expanded.set(term, FEEDBACK_WEIGHT * termWeight(term));
  return expanded;
}
