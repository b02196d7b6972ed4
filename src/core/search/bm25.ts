/**
 * BM25+ over a tree's nodes, in two fields: each node's own terms, and for a leaf the terms of the leaves
 * around it in its document (`nearby`, weighted `nearbyBoost`). Scores are those MiniSearch gave, which Aerie
 * used until issue 42: BM25+ with k1 1.2, b 0.7, δ 0.5, a field's length its number of distinct terms, idf
 * ln(1 + (N − n + ½) / (n + ½)) over all N nodes, a word the question repeats counted again, and the sum
 * multiplied by the number of the question's distinct terms the node matched (MiniSearch's "quality": a node
 * holding three of the question's words outranks one holding one word three times). Checked equal to
 * MiniSearch's to 1e-12 on every gold question of two books before it was dropped (docs/retrieval.md), and held
 * to hand-worked figures by tests/core/search/bm25.test.ts.
 *
 * Why our own: a question to MiniSearch returned one object per matching node, with the terms and fields that
 * matched, and sorted them all; on a 14,000-node tree that was 19 ms of a 34 ms question (`npm run bench
 * keywords`), while retrieval needs only a score per node. Here a question adds into one array. And the nearby
 * field is not stored: a leaf's nearby count of a term is the sum of its neighbours' own counts, summed at
 * question time from the own postings (a term's nearby document frequency is the number of leaves so reached),
 * which keeps the index at one posting per distinct term of each node instead of five.
 */

/** BM25's term-frequency saturation, length normalisation and lower bound (MiniSearch's defaults). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.7;
export const BM25_DELTA = 0.5;

/** BM25's inverse document frequency, as MiniSearch computes it: ln(1 + (N − n + ½) / (n + ½)). */
export function inverseFrequency(documents: number, holding: number): number {
  return Math.log(1 + (documents - holding + 0.5) / (holding + 0.5));
}

/** One term's occurrences: the nodes holding it in their own words and how often each does. */
interface Postings {
  ids: number[];
  counts: number[];
}

/** A keyword index being filled node by node, then queried (see the module comment). */
export class Bm25Index {
  private readonly postings = new Map<string, Postings>();
  /** Distinct own terms of each node, and of each leaf's nearby field. */
  private readonly lengths: Int32Array;
  private readonly nearbyLengths: Int32Array;
  private ownTotal = 0;
  private nearbyTotal = 0;
  /** Per node: the leaves it is a neighbour of (the same list as its own neighbours: nearness is symmetric). */
  private readonly around: readonly (readonly number[] | undefined)[];
  /** Scratch of `score`: each reached leaf's nearby count of the current term. */
  private readonly nearbyCounts: Float64Array;
  /** Scratch of `score`: how many of the question's distinct terms each node matched. */
  private readonly matchedTerms: Uint16Array;
  /** Scratch of `score`: the last term (its index among the question's distinct terms, + 1) each node matched. */
  private readonly lastTerm: Uint32Array;

  /**
   * @param size the number of nodes (ids 0 … size − 1)
   * @param around for each node, the leaves within reach of it in its document (none for summaries)
   * @param nearbyBoost the weight of the nearby field against a node's own words (1)
   */
  constructor(
    readonly size: number,
    around: readonly (readonly number[] | undefined)[],
    private readonly nearbyBoost: number,
  ) {
    this.lengths = new Int32Array(size);
    this.nearbyLengths = new Int32Array(size);
    this.nearbyCounts = new Float64Array(size);
    this.matchedTerms = new Uint16Array(size);
    this.lastTerm = new Uint32Array(size);
    this.around = around;
  }

  /** Distinct terms in the index. */
  get terms(): number {
    return this.postings.size;
  }

  /**
   * Indexes node `id` under `own` (its terms, repeats counted) and, for a leaf with neighbours, records the
   * number of distinct terms its neighbours' words hold together (`nearbyDistinct`).
   */
  add(id: number, own: readonly string[], nearbyDistinct: number): void {
    const counts = new Map<string, number>();
    for (const term of own) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, count] of counts) {
      const list = this.postings.get(term);
      if (list) {
        list.ids.push(id);
        list.counts.push(count);
      } else this.postings.set(term, { ids: [id], counts: [count] });
    }
    this.lengths[id] = counts.size;
    this.nearbyLengths[id] = nearbyDistinct;
    this.ownTotal += counts.size;
    this.nearbyTotal += nearbyDistinct;
  }

  /** How many nodes hold `term` in their own words. */
  holding(term: string): number {
    return this.postings.get(term)?.ids.length ?? 0;
  }

  /**
   * Writes each node's score for the question's `terms` (see the module comment) into `scores` (indexed by
   * node id) and returns how many nodes scored above 0.
   */
  score(terms: readonly string[], scores: Float64Array): number {
    scores.fill(0);
    this.matchedTerms.fill(0);
    this.lastTerm.fill(0);
    const repeats = new Map<string, number>();
    for (const term of terms) repeats.set(term, (repeats.get(term) ?? 0) + 1);
    let termNumber = 0;
    for (const [term, times] of repeats) {
      termNumber++;
      const list = this.postings.get(term);
      if (list) this.scoreTerm(list, times, termNumber, scores);
    }
    let matched = 0;
    for (let id = 0; id < this.size; id++) {
      if (this.matchedTerms[id] === 0) continue;
      scores[id] *= this.matchedTerms[id];
      matched++;
    }
    return matched;
  }

  /** Adds one distinct term's part (`times` the question repeats it) and counts it as matched where it scored. */
  private scoreTerm(
    { ids, counts }: Postings,
    times: number,
    termNumber: number,
    scores: Float64Array,
  ): void {
    const n = this.size;
    const idf = times * inverseFrequency(n, ids.length);
    const ownAverage = this.ownTotal / n;
    const reached: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      scores[id] += idf * saturate(counts[k], this.lengths[id], ownAverage);
      this.count(id, termNumber);
      const leaves = this.around[id];
      if (!leaves) continue;
      for (const leaf of leaves) {
        if (this.nearbyCounts[leaf] === 0) reached.push(leaf);
        this.nearbyCounts[leaf] += counts[k];
      }
    }
    if (reached.length === 0) return;
    const nearbyIdf = times * this.nearbyBoost * inverseFrequency(n, reached.length);
    const nearbyAverage = this.nearbyTotal / n;
    for (const leaf of reached) {
      scores[leaf] += nearbyIdf * saturate(this.nearbyCounts[leaf], this.nearbyLengths[leaf], nearbyAverage);
      this.nearbyCounts[leaf] = 0;
      this.count(leaf, termNumber);
    }
  }

  /** Counts term number `termNumber` as matched by node `id`, once. */
  private count(id: number, termNumber: number): void {
    if (this.lastTerm[id] === termNumber) return;
    this.lastTerm[id] = termNumber;
    this.matchedTerms[id]++;
  }
}

/** BM25+'s term-frequency part: δ + tf (k1 + 1) / (tf + k1 (1 − b + b · length / average)). */
function saturate(count: number, length: number, average: number): number {
  return (
    BM25_DELTA + (count * (BM25_K1 + 1)) / (count + BM25_K1 * (1 - BM25_B + (BM25_B * length) / average))
  );
}
