"""Reference speed of sentence embedding with native ONNX Runtime (Python, CPU), for `npm run bench` to print
beside the transformers.js figures.

It does what the browser path does, in the same order and with the same files: tokenise with the model folder's
tokenizer.json (special tokens added, then cut to --max-length as transformers.js cuts, then padded to the batch's
longest), run the ONNX session, mean-pool over the attention mask, L2-normalise. One warm-up batch is run first
and not timed; each timed run covers tokenisation, inference and pooling of all texts, and the fastest of
--repeats runs is reported (the others are listed): on a shared 2-core machine the slower runs measure the
neighbours.

Usage:
    python3 bench/embed-native.py --model .bench-cache/models/minilm-random \
        --texts texts.json --batch-size 32 --threads 2 --dtype q8 --max-length 128
texts.json holds a JSON array of strings. Prints one JSON object on stdout:
    {"chunksPerSecond", "seconds", "n", "batchSize", "threads", "dtype", "maxLength", "meanTokens", "dim",
     "runsChunksPerSecond", "onnxruntime", "model"}
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "models"))
import pyenv  # noqa: E402

pyenv.ensure(["numpy", "onnxruntime", "tokenizers"])

import numpy as np  # noqa: E402

import common  # noqa: E402

MODEL_FILES = {"fp32": common.FP32_FILE, "q8": common.Q8_FILE}
"""The file transformers.js loads for each dtype."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True, help="model folder in transformers.js's layout")
    parser.add_argument("--texts", type=Path, required=True, help="JSON array of strings")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1, help="ONNX Runtime intra-op threads")
    parser.add_argument("--dtype", choices=sorted(MODEL_FILES), default="q8")
    parser.add_argument(
        "--max-length", type=int, default=None, help="token limit (default: tokenizer_config's model_max_length)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the fastest is reported")
    parser.add_argument("--save", type=Path, default=None, help="write the embeddings as little-endian float32")
    args = parser.parse_args()

    with open(args.texts, encoding="utf-8") as f:
        texts = json.load(f)
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
        sys.exit(f"{args.texts}: expected a non-empty JSON array of strings")
    if min(args.batch_size, args.threads, args.repeats) < 1:
        sys.exit("--batch-size, --threads and --repeats must be at least 1")

    import onnxruntime

    tok = common.load_tokenizer(args.model, args.max_length)
    session = common.make_session(args.model / MODEL_FILES[args.dtype], threads=args.threads)
    common.embed(session, tok, texts[: args.batch_size], args.batch_size)  # warm-up: allocations, first-run costs

    runs = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        vectors = common.embed(session, tok, texts, args.batch_size)
        runs.append(time.perf_counter() - start)
    seconds = min(runs)

    if args.save is not None:
        vectors.astype("<f4").tofile(args.save)
    result = {
        "chunksPerSecond": len(texts) / seconds,
        "seconds": seconds,
        "n": len(texts),
        "batchSize": args.batch_size,
        "threads": args.threads,
        "dtype": args.dtype,
        "maxLength": tok.max_length,
        "meanTokens": float(np.mean([len(ids) for ids in tok.token_ids(texts)])),
        "dim": int(vectors.shape[1]),
        "runsChunksPerSecond": [round(len(texts) / s, 2) for s in runs],
        "onnxruntime": onnxruntime.__version__,
        "model": str(args.model),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
