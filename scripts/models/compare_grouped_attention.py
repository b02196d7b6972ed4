"""Measures what repeating key/value heads costs a batched decoding step of Qwen2.5-0.5B's shapes (random
weights, q8, onnxruntime on the CPU): the same decoder exported twice by decoder.py, with attention over repeated
key/value heads (as Hugging Face's `repeat_kv`, so the bench model and, presumably, exports of the real model) and
with each key/value head's query heads folded into its rows (`grouped`), checked to give the same logits and
caches, then timed one decoding step at 1 and 8 rows over a 64- and a 600-position cache.

Usage (the repository's Python environment, `bash scripts/python-env.sh`):
    python3 scripts/models/compare_grouped_attention.py [--layers 24] [--threads 2] [--out .bench-cache/attention]
Prints one line per (rows, cache) pair: milliseconds per step, repeated against grouped, and their ratio. The
exports (about 1.3 GB at 24 layers) stay in --out for the next run.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

pyenv.ensure(["numpy", "torch", "onnx", "onnxruntime"])

import numpy as np  # noqa: E402

import decoder  # noqa: E402
from make_qwen2_random import QWEN25_05B  # noqa: E402

WEIGHT_SEED = 7
WEIGHT_STD = 0.02
STEPS = 7
CASES = [(1, 64), (1, 600), (8, 64), (8, 600)]


def build(dims: decoder.Dims, weights, out: Path, grouped: bool) -> Path:
    name = f"{'grouped' if grouped else 'repeated'}-{dims.layers}"
    q8 = out / f"{name}-q8.onnx"
    if not q8.exists():
        fp32 = out / f"{name}.onnx"
        decoder.export(dims, weights, fp32, grouped=grouped)
        decoder.quantize_q8(fp32, q8)
    return q8


def feeds(dims: decoder.Dims, rows: int, past: int, seq: int = 1, seed: int = 1, keep: int = 1) -> dict:
    names, _ = decoder.io_names(dims)
    rng = np.random.default_rng(seed)
    cache = {n: rng.standard_normal((rows, dims.kv_heads, past, dims.head_dim), dtype=np.float32) for n in names[4:]}
    mask = np.ones((rows, past + seq), np.int64)
    if rows > 1:
        mask[0, : past // 2] = 0  # a left-padded row, as batches hold
    return {
        "input_ids": rng.integers(0, 1000, (rows, seq)).astype(np.int64),
        "attention_mask": mask,
        "position_ids": np.tile(np.arange(past, past + seq), (rows, 1)).astype(np.int64),
        "num_logits_to_keep": np.array(keep, np.int64),
        **cache,
    }


def step_ms(session, inputs: dict) -> float:
    session.run(None, inputs)
    times = []
    for _ in range(STEPS):
        start = time.perf_counter()
        session.run(None, inputs)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=QWEN25_05B.layers)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path(".bench-cache/attention"))
    args = parser.parse_args()
    dims = dataclasses.replace(QWEN25_05B, layers=args.layers)
    weights = decoder.seeded_weights(dims, WEIGHT_SEED, [], WEIGHT_STD)
    args.out.mkdir(parents=True, exist_ok=True)
    repeated = decoder.session(build(dims, weights, args.out, grouped=False), args.threads)
    grouped = decoder.session(build(dims, weights, args.out, grouped=True), args.threads)

    check = feeds(dims, rows=3, past=9, seq=4, seed=2, keep=0)
    a, b = repeated.run(None, check), grouped.run(None, check)
    differences = [float(np.max(np.abs(x - y))) for x, y in zip(a, b)]
    print(f"largest difference, logits and caches: {max(differences):.3g}")
    if max(differences) > 1e-4:
        sys.exit("the two exports disagree")

    for rows, past in CASES:
        inputs = feeds(dims, rows, past)
        r, g = step_ms(repeated, inputs), step_ms(grouped, inputs)
        print(
            f"{dims.layers} layers, {rows} row(s), {past}-position cache, {args.threads} threads: "
            f"repeated heads {r:.1f} ms, grouped {g:.1f} ms per step ({r / g:.2f}×)"
        )


if __name__ == "__main__":
    main()
