/**
 * How much a clustering keeps each document's text together: the purity of clusters against the document
 * each member came from (the tree-shape benchmark and tests; Manning, Raghavan & Schütze, "Introduction to
 * Information Retrieval", §16.3).
 */

/** Purity of a set of clusters (a node may sit in several). */
export interface Purity {
  /**
   * The textbook purity: Σ over clusters of the members from the cluster's most common document ÷ Σ cluster
   * sizes. Each parent–child link counts once, so a parent of eight children weighs eight times a parent of one.
   */
  links: number;
  /**
   * The mean over clusters of the share of its members from its most common document. Each parent counts once,
   * so single-member clusters (purity 1 by definition) raise it whatever they hold.
   */
  perParent: number;
  /** Mean members per cluster. */
  meanSize: number;
  /** Clusters of one member. */
  singletons: number;
}

/** Purity of `clusters` (lists of node indices) when node i came from document `docOf[i]`. */
export function purity(clusters: readonly (readonly number[])[], docOf: readonly string[]): Purity {
  let majority = 0;
  let links = 0;
  let shares = 0;
  let singletons = 0;
  for (const cluster of clusters) {
    const counts = new Map<string, number>();
    for (const i of cluster) counts.set(docOf[i], (counts.get(docOf[i]) ?? 0) + 1);
    const top = Math.max(...counts.values());
    majority += top;
    links += cluster.length;
    shares += top / cluster.length;
    if (cluster.length === 1) singletons++;
  }
  const m = clusters.length;
  return {
    links: links ? majority / links : 0,
    perParent: m ? shares / m : 0,
    meanSize: m ? links / m : 0,
    singletons,
  };
}
