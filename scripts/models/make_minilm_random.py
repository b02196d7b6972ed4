"""Builds a random-weight model with exactly multi-qa-MiniLM-L6-cos-v1's architecture (BERT, 6 layers, hidden 384,
12 heads, intermediate 1536, vocabulary 30522, 512 positions), for benchmarks: it costs what the real model costs per
token, but its vectors carry no meaning learnt from language (see scripts/models/README.md for what they still
carry). About 90 MB in fp32 + 23 MB q8: never commit it.

Needs numpy, torch, onnx and onnxruntime (its quantisation, for the q8 file the app and the benches load), at the
versions of scripts/python-packages.txt (`bash scripts/python-env.sh` makes an environment with them). The BERT
encoder is written out in plain torch (the same layers, shapes and initialisation as transformers' BertModel:
weights N(0, 0.02), biases 0, LayerNorm 1 and 0) and the tokenizer.json is written directly in the `tokenizers`
library's format, so neither transformers nor tokenizers is needed.

Usage (reads the committed public/models/aerie-glove-100d/tokenizer.json for its word list; needs no download):
    python3 scripts/models/make_minilm_random.py .bench-cache/models/minilm-random
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

pyenv.ensure(["numpy", "torch", "onnx", "ml_dtypes", "onnxruntime"])

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
TYPE_VOCAB = 2
LAYER_NORM_EPS = 1e-12
INIT_STD = 0.02
"""BertConfig.initializer_range."""


def build_model():
    import torch
    from torch import nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.query = nn.Linear(HIDDEN, HIDDEN)
            self.key = nn.Linear(HIDDEN, HIDDEN)
            self.value = nn.Linear(HIDDEN, HIDDEN)
            self.attention_output = nn.Linear(HIDDEN, HIDDEN)
            self.attention_norm = nn.LayerNorm(HIDDEN, eps=LAYER_NORM_EPS)
            self.intermediate = nn.Linear(HIDDEN, INTERMEDIATE)
            self.output = nn.Linear(INTERMEDIATE, HIDDEN)
            self.output_norm = nn.LayerNorm(HIDDEN, eps=LAYER_NORM_EPS)

        def heads(self, x):
            b, s, _ = x.shape
            return x.view(b, s, HEADS, HIDDEN // HEADS).transpose(1, 2)

        def forward(self, x, mask_bias):
            q, k, v = self.heads(self.query(x)), self.heads(self.key(x)), self.heads(self.value(x))
            scores = q @ k.transpose(-1, -2) / math.sqrt(HIDDEN // HEADS) + mask_bias
            context = (scores.softmax(-1) @ v).transpose(1, 2).reshape(x.shape)
            x = self.attention_norm(x + self.attention_output(context))
            hidden = nn.functional.gelu(self.intermediate(x))
            return self.output_norm(x + self.output(hidden))

    class Bert(nn.Module):
        """BertModel without its pooler: input_ids, attention_mask, token_type_ids -> last_hidden_state."""

        def __init__(self):
            super().__init__()
            self.words = nn.Embedding(VOCAB_SIZE, HIDDEN, padding_idx=0)
            self.positions = nn.Embedding(MAX_POSITIONS, HIDDEN)
            self.token_types = nn.Embedding(TYPE_VOCAB, HIDDEN)
            self.embedding_norm = nn.LayerNorm(HIDDEN, eps=LAYER_NORM_EPS)
            self.layers = nn.ModuleList([Layer() for _ in range(LAYERS)])

        def forward(self, input_ids, attention_mask, token_type_ids):
            positions = torch.arange(input_ids.shape[1]).unsqueeze(0)
            x = self.words(input_ids) + self.positions(positions) + self.token_types(token_type_ids)
            x = self.embedding_norm(x)
            mask_bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
            for layer in self.layers:
                x = layer(x, mask_bias)
            return x

    torch.manual_seed(SEED)
    model = Bert()
    for module in model.modules():
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, std=INIT_STD)
        if isinstance(module, nn.Linear):
            nn.init.zeros_(module.bias)
    with torch.no_grad():
        model.words.weight[0].zero_()  # the padding row, as BertModel's init leaves it
    return model.eval()


def config() -> dict:
    """config.json as transformers writes it for multi-qa-MiniLM-L6-cos-v1's BertConfig (the fields it reads)."""
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": VOCAB_SIZE,
        "hidden_size": HIDDEN,
        "num_hidden_layers": LAYERS,
        "num_attention_heads": HEADS,
        "intermediate_size": INTERMEDIATE,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
        "max_position_embeddings": MAX_POSITIONS,
        "type_vocab_size": TYPE_VOCAB,
        "initializer_range": INIT_STD,
        "layer_norm_eps": LAYER_NORM_EPS,
        "pad_token_id": 0,
    }


def export_onnx(model, path: Path) -> None:
    """(input_ids, attention_mask, token_type_ids) -> last_hidden_state, dynamic batch and sequence axes, opset 17
    with the TorchScript exporter (the form ../../shared/ENVIRONMENT.md verified in ORT-web and ORT-node)."""
    import onnx
    import torch

    sample = torch.ones((2, 8), dtype=torch.long)
    axes = {0: "batch_size", 1: "sequence_length"}
    options = {}
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        options["dynamo"] = False
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            model,
            (sample, sample, torch.zeros_like(sample)),
            str(path),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={name: axes for name in ("input_ids", "attention_mask", "token_type_ids", "last_hidden_state")},
            opset_version=common.ONNX_OPSET,
            **options,
        )
    onnx.checker.check_model(str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="model folder to write, e.g. .bench-cache/models/minilm-random")
    args = parser.parse_args()

    words = common.frequent_words()
    n_words = VOCAB_SIZE - N_SUFFIXES - 2 * 100  # leaves room for the special tokens and ASCII characters
    vocab = common.wordpiece_vocabulary(words, n_words, N_SUFFIXES, size=VOCAB_SIZE)
    assert len(vocab) == VOCAB_SIZE and len(set(vocab)) == VOCAB_SIZE

    out: Path = args.out
    common.write_json(out / "config.json", config())
    common.write_tokenizer_json(out / "tokenizer.json", vocab)
    common.write_tokenizer_config(out, MAX_POSITIONS)
    export_onnx(build_model(), out / common.FP32_FILE)
    report = {"folder": str(out), "vocab": VOCAB_SIZE, "fp32": common.file_size(out / common.FP32_FILE)}
    # Gather too: the 30522 x 384 table is 47 MB in fp32, and the published q8 files quantise it (23 MB).
    common.quantize_q8(out / common.FP32_FILE, out / common.Q8_FILE, ["MatMul", "Gather"], matmul_const_b_only=True)
    report["q8"] = common.file_size(out / common.Q8_FILE)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
