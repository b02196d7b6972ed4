"""Builds a cross-encoder (BERT with a one-logit classification head, as Xenova/ms-marco-MiniLM-L-6-v2) with seeded
random weights, in the layout transformers.js's AutoModelForSequenceClassification reads: the reranker's test and
benchmark model (its scores carry no meaning; it costs what the real model costs per pair).

    python3 scripts/models/make_cross_encoder_random.py            # tiny: public/models/aerie-tiny-cross (tests)
    python3 scripts/models/make_cross_encoder_random.py --minilm .bench-cache/models/ms-marco-minilm-random

The tiny model also writes tests/fixtures/models/aerie-tiny-cross.expected.json: question/passage pairs, their
token ids and token types, and the logits ONNX Runtime computes for them (fp32 and q8, one batch), with the SHA-256
of every file; tests/models/embed/reranker.test.ts checks transformers.js in Node against it. Needs no download: the word
list is the committed GloVe model's vocabulary.
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
import q8_check  # noqa: E402

TINY_NAME = "aerie-tiny-cross"
SEED = 20241201
"""Seed of torch's generator for the weights: the same seed gives the same files."""

TINY = {"hidden": 32, "layers": 2, "heads": 4, "intermediate": 128, "positions": 256, "words": 2000, "suffixes": 300}
"""The committed test model: small enough to load in milliseconds."""
MINILM = {"hidden": 384, "layers": 6, "heads": 12, "intermediate": 1536, "positions": 512, "size": 30522, "suffixes": 4000}
"""cross-encoder/ms-marco-MiniLM-L-6-v2's shapes (bert-base-uncased's 30,522-token vocabulary, 512 positions)."""

FIXTURE_PAIRS = [
    ("Who helped Cinderella go to the ball?", "Her fairy godmother turned a pumpkin into a coach."),
    ("Who helped Cinderella go to the ball?", "The king held a ball for his son."),
    ("What did the prince find on the stairs?", "Cinderella lost her glass slipper on the palace stairs."),
    ("Café DÉJÀ vu?", "naïve résumé 42 — unbelievably, pieces!"),
]
"""Scored one pair at a time in Python and in the Node test: q8 quantises activations per batch."""


def build_model(shape: dict, vocab_size: int):
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    config = BertConfig(
        vocab_size=vocab_size,
        hidden_size=shape["hidden"],
        num_hidden_layers=shape["layers"],
        num_attention_heads=shape["heads"],
        intermediate_size=shape["intermediate"],
        max_position_embeddings=shape["positions"],
        type_vocab_size=2,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        pad_token_id=0,
        num_labels=1,
        attn_implementation="eager",
    )
    torch.manual_seed(SEED)
    return config, BertForSequenceClassification(config).eval()


def export_logits(model, path: Path) -> None:
    """(input_ids, attention_mask, token_type_ids) -> logits [batch, 1], dynamic axes, opset 17, TorchScript exporter."""
    import inspect

    import onnx
    import torch

    class Logits(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).logits

    sample = torch.ones((2, 8), dtype=torch.long)
    axes = {0: "batch_size", 1: "sequence_length"}
    options = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            Logits(model),
            (sample, sample, torch.zeros_like(sample)),
            str(path),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["logits"],
            dynamic_axes={
                "input_ids": axes,
                "attention_mask": axes,
                "token_type_ids": axes,
                "logits": {0: "batch_size"},
            },
            opset_version=common.ONNX_OPSET,
            **options,
        )
    onnx.checker.check_model(str(path))


def write_config(folder: Path, config) -> None:
    """config.json naming the architecture transformers.js maps to BertForSequenceClassification."""
    data = config.to_dict()
    data["architectures"] = ["BertForSequenceClassification"]
    data["model_type"] = "bert"
    data["id2label"] = {"0": "LABEL_0"}
    data["label2id"] = {"LABEL_0": 0}
    for key in ("transformers_version", "dtype", "torch_dtype", "_name_or_path"):
        data.pop(key, None)
    common.write_json(folder / "config.json", data)


def pair_inputs(tok, pairs):
    """Padded int64 tensors of (question, passage) pairs: [CLS] q [SEP] p [SEP], types 0 then 1."""
    import numpy as np

    encodings = [tok.encode(q, p) for q, p in pairs]
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(pairs), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for i, e in enumerate(encodings):
        ids[i, : len(e.ids)] = e.ids
        mask[i, : len(e.ids)] = 1
        types[i, : len(e.ids)] = e.type_ids
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}, encodings


FP32_TOLERANCE = 1e-5
"""fp32 logits in Node against Python's ONNX Runtime."""


def write_fixture(folder: Path, tok) -> Path:
    import numpy as np

    _, encodings = pair_inputs(tok, FIXTURE_PAIRS)
    logits = {}
    files = ["config.json", "tokenizer.json", "tokenizer_config.json"]
    # The Node test scores each pair alone (a reranker's batch shares one question; these pairs do not), and q8
    # quantises activations per batch: each pair is a batch of one here too.
    probes = [q8_check.Probe(pair_inputs(tok, [pair])[0], lambda outputs: outputs[0][:, 0]) for pair in FIXTURE_PAIRS]
    for dtype, rel in {"fp32": common.FP32_FILE, "q8": common.Q8_FILE}.items():
        out = np.concatenate(q8_check.run_probes((folder / rel).read_bytes(), probes))
        logits[dtype] = [float(f"{x:.9g}") for x in out.tolist()]
        files.append(rel)
    fp32 = q8_check.run_probes((folder / common.FP32_FILE).read_bytes(), probes)
    check = q8_check.q8_check(folder / common.Q8_FILE, fp32, probes, floor=FP32_TOLERANCE)
    data = {
        "model": TINY_NAME,
        "generatedBy": "scripts/models/make_cross_encoder_random.py",
        "tolerance": {"fp32": FP32_TOLERANCE, "q8": check["tolerance"]},
        "q8Check": check,
        "sha256": {rel: common.sha256(folder / rel) for rel in files},
        "pairs": [list(p) for p in FIXTURE_PAIRS],
        "tokenIds": [e.ids for e in encodings],
        "tokenTypes": [e.type_ids for e in encodings],
        "logits": logits,
    }
    path = common.FIXTURES_DIR / f"{TINY_NAME}.expected.json"
    common.write_json(path, data, indent=1)
    return path


NOTICE = f"""{TINY_NAME}: a tiny BERT cross-encoder (one logit per question/passage pair) with random weights, for
tests. Generated by scripts/models/make_cross_encoder_random.py (Aerie): the weights are drawn by torch's generator
seeded with {SEED} and carry no meaning. The vocabulary is built as aerie-tiny-random's (see its NOTICE for the
word list's origin and licences).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minilm", type=Path, help="write ms-marco-MiniLM-L-6-v2's full-size architecture here")
    args = parser.parse_args()

    words = common.frequent_words()
    if args.minilm:
        shape, out = MINILM, args.minilm
        n_words = shape["size"] - shape["suffixes"] - 2 * 100
        vocab = common.wordpiece_vocabulary(words, n_words, shape["suffixes"], size=shape["size"])
    else:
        shape, out = TINY, common.MODELS_DIR / TINY_NAME
        vocab = common.wordpiece_vocabulary(words, shape["words"], shape["suffixes"])
    tok = common.build_tokenizer(vocab)
    common.assert_real_words(tok, words[:2000])
    config, model = build_model(shape, len(vocab))
    write_config(out, config)
    common.write_tokenizer_files(out, tok, shape["positions"])
    export_logits(model, out / common.FP32_FILE)
    # MatMul only for the tiny model; MatMul and the word table (Gather) at full size, as the published q8 files.
    ops = ["MatMul", "Gather"] if args.minilm else ["MatMul"]
    # The tiny model's weights are unsigned (exact on every CPU: q8_check.py); the full-size one keeps the signed
    # weights of the published q8 files it stands in for.
    weights = "QInt8" if args.minilm else "QUInt8"
    common.quantize_q8(out / common.FP32_FILE, out / common.Q8_FILE, ops, matmul_const_b_only=True, weight_type=weights)
    report = {
        "folder": str(out),
        "vocab": len(vocab),
        "fp32": common.file_size(out / common.FP32_FILE),
        "q8": common.file_size(out / common.Q8_FILE),
    }
    if not args.minilm:
        (out / "NOTICE").write_text(NOTICE, encoding="utf-8")
        report["fixture"] = str(write_fixture(out, tok).relative_to(common.REPO_ROOT))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
