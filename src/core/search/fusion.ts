/**
 * Orders of candidates by keywords, or by meaning and keywords fused, for `retrieve`. Meaning alone keeps
 * retrieve.ts's own partial selection (the official TreeRetriever's ranking, bit for bit).
 *
 * Fusion is reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): a node's fused score is
 * Σ 1 / (RRF_K + rank) over the rankings it appears in (rank 1 = best). Every candidate has a meaning rank; only
 * nodes that share a term with the question have a keyword rank. Ranks, not scores, are fused because cosine
 * similarities and BM25 scores live on unrelated scales that change from question to question.
 * Weighted and score-based variants were tried on the gold sets and dropped (docs/retrieval.md).
 */

/** The constant of reciprocal rank fusion: the original paper's 60. */
export const RRF_K = 60;

/** Candidate order: score `primary` descending, then `cosine` descending, then id ascending. */
function sortBy(ids: Int32Array, primary: Float64Array, cosine: Float64Array): Int32Array {
  return ids.sort((a, b) => primary[b] - primary[a] || cosine[b] - cosine[a] || a - b) as Int32Array;
}

/** The candidates as an Int32Array (all `count` nodes when `candidates` is undefined). */
function idsOf(candidates: ArrayLike<number> | undefined, count: number): Int32Array {
  if (!candidates) return Int32Array.from({ length: count }, (_, i) => i);
  return Int32Array.from(candidates);
}

/**
 * The candidates best first by keyword score (BM25, `keyword[id]`), ties (above all the nodes no term matched,
 * all at 0) by cosine similarity, then by id.
 */
export function keywordOrder(
  candidates: ArrayLike<number> | undefined,
  count: number,
  keyword: Float64Array,
  cosine: Float64Array,
): Int32Array {
  return sortBy(idsOf(candidates, count), keyword, cosine);
}

/**
 * The candidates best first by reciprocal rank fusion of the meaning ranking (cosine) and the keyword ranking
 * (BM25, nodes with a score above 0). Writes each candidate's fused score into `fused`. Ties by cosine, then id;
 * when no node matches a keyword, the order is the meaning order.
 */
export function fusedOrder(
  candidates: ArrayLike<number> | undefined,
  count: number,
  keyword: Float64Array,
  cosine: Float64Array,
  fused: Float64Array,
): Int32Array {
  const ids = idsOf(candidates, count);
  const byMeaning = ids.slice().sort((a, b) => cosine[b] - cosine[a] || a - b);
  for (let rank = 0; rank < byMeaning.length; rank++) fused[byMeaning[rank]] = 1 / (RRF_K + rank + 1);
  const matched = ids.filter((id) => keyword[id] > 0);
  sortBy(matched, keyword, cosine);
  for (let rank = 0; rank < matched.length; rank++) fused[matched[rank]] += 1 / (RRF_K + rank + 1);
  return sortBy(ids, fused, cosine);
}
