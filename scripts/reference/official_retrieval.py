"""Reference retrieval cases on the official RAPTOR Cinderella tree.

Writes tests/fixtures/official-retrieval-cases.json: for a set of deterministic query vectors, the node ids (in
order), scores and context that the official implementation's TreeRetriever (parthsarthi03/raptor,
raptor/tree_retriever.py) selects in collapsed-tree and tree-traversal retrieval. tests/core/search/retrieve.test.ts
checks that src/core/search/retrieve.ts selects exactly the same.

This is an independent numpy re-implementation of the official selection rules (not a copy of its code); each
function names the official function it mirrors. Its output was checked against the official code itself (see
docs/tree-format.md, "Reference tests"). Differences that cannot matter here:
- token counts: the official code re-tokenizes each candidate's text at retrieval time with tiktoken's
  cl100k_base (`len(self.tokenizer.encode(node.text))`) and ignores any stored count. We read those counts from
  tests/fixtures/chunk/cl100k-counts.json (`officialTree`): computed by OpenAI's tiktoken, cl100k_base (see
  tests/fixtures/chunk/make-cl100k-counts.mjs), and equal to Aerie's countTokens on all 40 texts. The tree
  file's own `tokens` field is NOT used for budgets: it holds o200k_base counts (it differs from cl100k on 24 of
  the 40 nodes); it is read only to report which cases a budget by those counts would get wrong.
- ties: the official code orders by np.argsort (quicksort, unstable) of scipy cosine distances; we order by
  descending cosine, then ascending id. Queries whose rankings have near-ties (gap < TIE_GAP) where the
  selection depends on the order are skipped, so the recorded cases do not depend on the tie rule.

Run: python3 scripts/reference/official_retrieval.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TREE_PATH = ROOT / "tests" / "fixtures" / "official-cinderella-tree.json"
CL100K_PATH = ROOT / "tests" / "fixtures" / "chunk" / "cl100k-counts.json"
OUT_PATH = ROOT / "tests" / "fixtures" / "official-retrieval-cases.json"

SEED = 20240301
# Node embeddings used as queries as they are: leaves across the story and several summaries.
NODE_QUERIES = [0, 7, 14, 21, 28, 32, 33, 35, 37, 39]
PAIR_QUERIES = 7
RANDOM_QUERIES = 3
# Smallest score gap between neighbours in a ranking that decides a selection; below it, the order of two nodes
# could differ between float64 implementations (argsort of 1 - cos vs. our cosine) and the case is not recorded.
TIE_GAP = 1e-9
SCORE_DECIMALS = 10

# The official TreeRetriever.retrieve defaults: top_k=10, max_tokens=3500 for the collapsed tree; traversal uses
# TreeRetrieverConfig's top_k=5, start_layer=tree.num_layers, num_layers=tree.num_layers + 1.
OFFICIAL_COLLAPSED_TOP_K = 10
OFFICIAL_COLLAPSED_MAX_TOKENS = 3500
OFFICIAL_TRAVERSAL_TOP_K = 5
PAPER_MAX_TOKENS = 2000
SMALL_MAX_TOKENS = 300
# Per-query budgets placed on a decision boundary: the cl100k total of the best nodes that fit in EDGE_TARGET
# tokens (an exact fit, which the `<=` rule must take), and one token less (the last of those nodes then misfits
# by a single token, so any other tokenizer's counts, and any rule that skips a misfit, select differently).
EDGE_TARGET = 1000


def load_tree():
    tree = json.loads(TREE_PATH.read_text(encoding="utf-8"))
    nodes = tree["nodes"]
    assert [n["id"] for n in nodes] == list(range(len(nodes))), "ids must be dense"
    cl100k = json.loads(CL100K_PATH.read_text(encoding="utf-8"))["officialTree"]
    assert [c["id"] for c in cl100k] == list(range(len(nodes))), "one cl100k count per node, in id order"
    embeddings = np.array([n["embedding"] for n in nodes], dtype=np.float32).astype(np.float64)
    return {
        "embeddings": embeddings,
        "norms": np.linalg.norm(embeddings, axis=1),
        # What the official TreeRetriever budgets with: cl100k_base counts of each text.
        "tokens": [c["tokens"] for c in cl100k],
        # The tree file's `tokens` field (o200k_base counts), only to show which cases it would get wrong.
        "fileTokens": [n["tokens"] for n in nodes],
        "texts": [n["text"] for n in nodes],
        "children": [list(n["children"]) for n in nodes],
        "layers": [n["layer"] for n in nodes],
    }


def cosine(tree, query, ids):
    """Cosine similarity of the query to nodes `ids` (mirrors utils.distances_from_embeddings, as 1 - distance)."""
    ids = np.asarray(ids, dtype=np.int64)
    return tree["embeddings"][ids] @ query / (tree["norms"][ids] * np.linalg.norm(query))


def ranked(tree, query, ids):
    """Candidates best first (mirrors utils.indices_of_nearest_neighbors_from_distances, ties by id)."""
    ids = np.asarray(sorted(ids), dtype=np.int64)
    scores = cosine(tree, query, ids)
    order = np.lexsort((ids, -scores))
    return ids[order].tolist(), scores[order].tolist()


def clear_gaps(scores, upto):
    """True when the first `upto` + 1 scores are pairwise separated by more than TIE_GAP."""
    head = scores[: upto + 1]
    return all(a - b > TIE_GAP for a, b in zip(head, head[1:]))


def context_of(tree, ids):
    """The context string (mirrors utils.get_text: line breaks to spaces, each text followed by a blank line)."""
    return "".join(" ".join(tree["texts"][i].splitlines()) + "\n\n" for i in ids)


def fill(order, tokens, limit, max_tokens, stop_at_misfit=True):
    """Takes the first `limit` of `order` while the token total stays within `max_tokens`: stopping at the first
    node that does not fit (the official rule) or, with stop_at_misfit=False, skipping it (a rule the official
    code does NOT follow, computed only to show that the cases tell the two apart)."""
    chosen, total = [], 0
    for idx in order[:limit]:
        if total + tokens[idx] > max_tokens:
            if stop_at_misfit:
                break
            continue
        chosen.append(idx)
        total += tokens[idx]
    return chosen


def collapsed(tree, query, top_k, max_tokens):
    """Mirrors TreeRetriever.retrieve_information_collapse_tree: rank all nodes, keep the first `top_k`, take them
    in order while the token total (cl100k counts) stays within `max_tokens`, and stop at the first node that
    does not fit. Also returns what two wrong rules would select: skipping misfits, and budgeting by the
    file's o200k counts."""
    order, scores = ranked(tree, query, range(len(tree["tokens"])))
    limit = len(order) if top_k is None else top_k
    chosen = fill(order, tree["tokens"], limit, max_tokens)
    wrong = {
        "skipMisfits": fill(order, tree["tokens"], limit, max_tokens, stop_at_misfit=False),
        "o200kCounts": fill(order, tree["fileTokens"], limit, max_tokens),
    }
    # The order matters up to the node that did not fit (or the top_k cut-off) and the one after it, which a
    # different tie order could have tried first.
    decided = min(len(chosen) + 1, len(order) - 1)
    return chosen, dict(zip(order, scores)), clear_gaps(scores, decided), wrong


def edge_budget(tree, query):
    """The cl100k total of the best-ranked nodes taken (stop rule, no cap) within EDGE_TARGET tokens."""
    order, _ = ranked(tree, query, range(len(tree["tokens"])))
    return sum(tree["tokens"][i] for i in fill(order, tree["tokens"], len(order), EDGE_TARGET))


def traversal(tree, query, top_k, start_layer, num_layers):
    """Mirrors TreeRetriever.retrieve_information (selection_mode "top_k"): the best top_k of the start layer,
    then the best top_k among the children of those chosen (deduplicated), for num_layers layers."""
    candidates = [i for i, layer in enumerate(tree["layers"]) if layer == start_layer]
    chosen, all_scores, clear = [], {}, True
    for step in range(num_layers):
        order, scores = ranked(tree, query, candidates)
        best = order[:top_k]
        clear = clear and clear_gaps(scores, min(top_k, len(order) - 1))
        all_scores.update(zip(order, scores))
        chosen.extend(best)
        if step != num_layers - 1:
            candidates = list(dict.fromkeys(child for idx in best for child in tree["children"][idx]))
    return chosen, all_scores, clear, {}


def modes(top_layer, n_nodes):
    """The recorded retrieval settings, with our options and the official call that makes the same selection.
    `budget`, when present, gives the per-query maxTokens (recorded with each result)."""
    return [
        {
            "name": "collapsed-official",
            "options": {
                "mode": "collapsed",
                "topK": OFFICIAL_COLLAPSED_TOP_K,
                "maxTokens": OFFICIAL_COLLAPSED_MAX_TOKENS,
            },
            "official": "TreeRetriever.retrieve(query) (defaults top_k=10, max_tokens=3500, collapse_tree=True)",
            "run": lambda t, q: collapsed(t, q, OFFICIAL_COLLAPSED_TOP_K, OFFICIAL_COLLAPSED_MAX_TOKENS),
        },
        {
            "name": "collapsed-2000",
            "options": {"mode": "collapsed", "maxTokens": PAPER_MAX_TOKENS},
            "official": f"TreeRetriever.retrieve(query, top_k={n_nodes}, max_tokens={PAPER_MAX_TOKENS})",
            "run": lambda t, q: collapsed(t, q, None, PAPER_MAX_TOKENS),
        },
        {
            "name": "collapsed-300",
            "options": {"mode": "collapsed", "maxTokens": SMALL_MAX_TOKENS},
            "official": f"TreeRetriever.retrieve(query, top_k={n_nodes}, max_tokens={SMALL_MAX_TOKENS})",
            "run": lambda t, q: collapsed(t, q, None, SMALL_MAX_TOKENS),
        },
        {
            "name": "collapsed-edge-exact",
            "options": {"mode": "collapsed"},
            "official": f"TreeRetriever.retrieve(query, top_k={n_nodes}, max_tokens=<result.maxTokens>): the cl100k "
            f"total of the best nodes that fit in {EDGE_TARGET} tokens (an exact fit)",
            "budget": edge_budget,
        },
        {
            "name": "collapsed-edge-tight",
            "options": {"mode": "collapsed"},
            "official": f"TreeRetriever.retrieve(query, top_k={n_nodes}, max_tokens=<result.maxTokens>): one token "
            "less than collapsed-edge-exact, so its last node misfits by one token",
            "budget": lambda t, q: edge_budget(t, q) - 1,
        },
        {
            "name": "traversal-default",
            "options": {"mode": "traversal"},
            "official": "TreeRetriever.retrieve(query, collapse_tree=False) (config top_k=5, "
            "start_layer=tree.num_layers, num_layers=tree.num_layers + 1)",
            "run": lambda t, q: traversal(t, q, OFFICIAL_TRAVERSAL_TOP_K, top_layer, top_layer + 1),
        },
    ]


def float32_exact(vector):
    """The vector rounded to float32, as Python floats holding exactly those float32 values (JSON writes each as
    the shortest decimal that reads back to the same double), and as float64 for the computations here."""
    v32 = np.asarray(vector, dtype=np.float32)
    return [float(x) for x in v32], v32.astype(np.float64)


def record(tree, settings, vector):
    """The results of every mode for one query vector, or None when a near-tie decides a selection."""
    results = {}
    for mode in settings:
        budget = mode["budget"](tree, vector) if "budget" in mode else None
        if budget is None:
            ids, scores, clear, wrong = mode["run"](tree, vector)
        else:
            ids, scores, clear, wrong = collapsed(tree, vector, None, budget)
        if not clear:
            return None
        context = context_of(tree, ids)
        results[mode["name"]] = {
            **({} if budget is None else {"maxTokens": budget}),
            "ids": ids,
            "scores": [round(scores[i], SCORE_DECIMALS) for i in ids],
            "tokens": sum(tree["tokens"][i] for i in ids),
            "contextChars": len(context.encode("utf-16-le")) // 2,
            "contextSha256": hashlib.sha256(context.encode("utf-8")).hexdigest(),
            # Not part of the official result: whether each wrong rule would have selected differently here.
            "wrongRulesDiffer": {name: other != ids for name, other in wrong.items()},
        }
    return results


def main():
    tree = load_tree()
    n = len(tree["tokens"])
    dim = tree["embeddings"].shape[1]
    top_layer = max(tree["layers"])
    settings = modes(top_layer, n)
    rng = np.random.default_rng(SEED)
    queries, skipped = [], []

    def offer(query, vector):
        results = record(tree, settings, vector)
        if results is None:
            skipped.append(query["name"])
            return False
        queries.append({**query, "results": results})
        return True

    # Node embeddings as they are.
    for node in NODE_QUERIES:
        offer({"name": f"node-{node}", "kind": "node", "node": node}, tree["embeddings"][node])
    # Normalised sums of distinct random pairs: two nodes compete for the top.
    accepted, seen = 0, set()
    while accepted < PAIR_QUERIES:
        a, b = sorted(rng.choice(n, size=2, replace=False).tolist())
        if (a, b) in seen:
            continue
        seen.add((a, b))
        total = tree["embeddings"][a] + tree["embeddings"][b]
        values, vector = float32_exact(total / np.linalg.norm(total))
        accepted += offer({"name": f"pair-{a}-{b}", "kind": "pair", "nodes": [a, b], "vector": values}, vector)
    # Seeded random unit vectors: nearly orthogonal to everything, so small score gaps.
    accepted, r = 0, 0
    while accepted < RANDOM_QUERIES:
        v = rng.standard_normal(dim)
        values, vector = float32_exact(v / np.linalg.norm(v))
        accepted += offer({"name": f"random-{r}", "kind": "random", "vector": values}, vector)
        r += 1

    out = {
        "about": "Selections of the official RAPTOR TreeRetriever on tests/fixtures/official-cinderella-tree.json, "
        "written by scripts/reference/official_retrieval.py (an independent numpy implementation of its rules, "
        "verified against the official code). Query vectors: kind 'node' uses that node's embedding; 'pair' and "
        "'random' give the vector as numbers that are exactly float32 values. Context: sha256 (UTF-8) and "
        "length in UTF-16 code units of the official get_text output.",
        "seed": SEED,
        "tieGap": TIE_GAP,
        "skippedNearTies": skipped,
        "tokenCounts": "cl100k_base counts of each node's text (tests/fixtures/chunk/cl100k-counts.json, "
        "officialTree; computed by OpenAI's tiktoken), as the official TreeRetriever counts at retrieval time; not "
        "the tree file's `tokens` field, which holds o200k_base counts. wrongRulesDiffer marks the collapsed cases "
        "where skipping a misfit instead of stopping, or budgeting by the file's o200k counts, selects differently.",
        "modes": [{k: m[k] for k in ("name", "options", "official")} for m in settings],
        "queries": queries,
    }
    OUT_PATH.write_text(json.dumps(out, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT_PATH.relative_to(ROOT)}: {len(queries)} queries, skipped {skipped or 'none'}")
    for mode in settings:
        results = [q["results"][mode["name"]] for q in queries]
        differ = {
            rule: sum(r["wrongRulesDiffer"].get(rule, False) for r in results)
            for rule in ("skipMisfits", "o200kCounts")
        }
        exact = sum(r["tokens"] == r.get("maxTokens", mode["options"].get("maxTokens")) for r in results)
        print(
            f"  {mode['name']}: {len(results)} cases; skipping misfits differs in {differ['skipMisfits']}, "
            f"o200k counts differ in {differ['o200kCounts']}, exact fits {exact}"
        )


if __name__ == "__main__":
    main()
