/**
 * Question frame words: the words a question uses to say what kind of answer it wants rather than what it is
 * about ("What **part** does music **play** in Anne's life through the **story**?", "How does Lady Catherine
 * **treat** Elizabeth, from their **first** meeting to the **end**?"). In a sentence of the book they are noise:
 * "story", "part", "show" or "end" occur in thousands of sentences that say nothing of music or of Lady
 * Catherine, and a sentence that holds one of them with a question's name outranks the evidence that holds the
 * name alone. So passages by sentence (passages.ts) score sentences without them; the nodes are still ranked with
 * every word of the question (a passage about "the end of the story" keeps its words).
 *
 * Chosen on the tuning gold sets only (docs/retrieval.md: the words that questions of at least two of the three
 * tuning books use to frame what they ask, plus their kin): thematic evidence of the collapsed tree 0.347 →
 * 0.357, facts unchanged; reported on the held-out sets.
 */
import { keywordTerms } from './terms';

/** The words, as a person writes them; `QUESTION_FRAME_TERMS` holds their terms (Porter stems). */
const FRAME_WORDS = [
  'story',
  'book',
  'novel',
  'chapter',
  'part',
  'play',
  'role',
  'show',
  'change',
  'develop',
  'happen',
  'turn',
  'end',
  'first',
  'later',
  'finally',
  'eventually',
  'time',
  'course',
  'point',
  'describe',
  'treat',
  'appear',
  'shape',
  'contrast',
  'come',
  'drive',
  'mean',
  'recur',
  'figure',
  'relationship',
  'view',
  'attitude',
];

/** The terms of the question frame words (`keywordTerms` of `FRAME_WORDS`: "story" → "stori"). */
export const QUESTION_FRAME_TERMS: ReadonlySet<string> = new Set(keywordTerms(FRAME_WORDS.join(' ')));

/**
 * `weights` (a question's terms and their weights) without the question frame terms, or `weights` itself when
 * the question has no other term ("How does the story end?" is still scored by its words).
 */
export function withoutFrameTerms(weights: ReadonlyMap<string, number>): ReadonlyMap<string, number> {
  const kept = new Map([...weights].filter(([term]) => !QUESTION_FRAME_TERMS.has(term)));
  return kept.size === 0 ? weights : kept;
}
