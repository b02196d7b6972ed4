"""Builds a random-weight model with exactly multi-qa-MiniLM-L6-cos-v1's architecture (BERT, 6 layers, hidden 384,
12 heads, intermediate 1536, vocabulary 30522, 512 positions) in fp32 and q8, for speed benchmarks: it costs what
the real model costs per token, but its vectors mean nothing. About 90 MB (fp32) + 23 MB (q8): never commit it.

Usage (reads the committed public/models/aerie-glove-100d/tokenizer.json for its word list; needs no download):
    python3 scripts/models/make_minilm_random.py .bench-cache/models/minilm-random
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

pyenv.ensure(
    {
        "numpy": "numpy",
        "torch": "torch",
        "onnx": "onnx",
        "onnxruntime": "onnxruntime",
        "tokenizers": "tokenizers",
        "transformers": "transformers",
    }
)

import common  # noqa: E402

SEED = 20240502
VOCAB_SIZE = 30522
"""bert-base-uncased's vocabulary size, which MiniLM-L6 shares."""
N_SUFFIXES = 4000
"""'##' pieces; bert-base-uncased has about 5,800, a generated vocabulary needs fewer to split words alike."""
HIDDEN = 384
LAYERS = 6
HEADS = 12
INTERMEDIATE = 1536
MAX_POSITIONS = 512
"""Position table size and model_max_length, as in multi-qa-MiniLM-L6-cos-v1's config and tokenizer_config."""


def build_model():
    import torch
    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=VOCAB_SIZE,
        hidden_size=HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=HEADS,
        intermediate_size=INTERMEDIATE,
        hidden_act="gelu",
        max_position_embeddings=MAX_POSITIONS,
        type_vocab_size=2,
        layer_norm_eps=1e-12,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        pad_token_id=0,
        attn_implementation="eager",
    )
    torch.manual_seed(SEED)
    return config, BertModel(config, add_pooling_layer=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="model folder to write, e.g. .bench-cache/models/minilm-random")
    args = parser.parse_args()

    words = common.frequent_words()
    n_words = VOCAB_SIZE - N_SUFFIXES - 2 * 100  # leaves room for the special tokens and ASCII characters
    vocab = common.wordpiece_vocabulary(words, n_words, N_SUFFIXES, size=VOCAB_SIZE)
    tok = common.build_tokenizer(vocab)
    assert tok.get_vocab_size() == VOCAB_SIZE
    common.assert_real_words(tok, words[:n_words])
    config, model = build_model()

    out: Path = args.out
    common.write_config(out, config)
    common.write_tokenizer_files(out, tok, MAX_POSITIONS)
    common.export_onnx(model, out / common.FP32_FILE)
    # Gather too: the 30522 x 384 table is 47 MB in fp32, and the published q8 files quantise it (23 MB).
    common.quantize_q8(out / common.FP32_FILE, out / common.Q8_FILE, ["MatMul", "Gather"], matmul_const_b_only=True)
    report = {
        "folder": str(out),
        "vocab": VOCAB_SIZE,
        "fp32": common.file_size(out / common.FP32_FILE),
        "q8": common.file_size(out / common.Q8_FILE),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
