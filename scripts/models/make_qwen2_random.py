"""Builds random-weight Qwen2 decoders in the file layout transformers.js 4.3.1 reads for
`pipeline('text-generation', …)` / AutoModelForCausalLM: the built-in summariser's offline test model, and the
benchmark's stand-in for Qwen2.5-0.5B-Instruct (the WASM preset).

    python3 scripts/models/make_qwen2_random.py
        public/models/aerie-tiny-qwen2 (Qwen2, hidden 64, 2 layers, 4 heads / 2 KV heads, 2,048-token byte-level
        BPE with a ChatML template; fp32, q8, q4) and tests/fixtures/models/aerie-tiny-qwen2.expected.json.

    python3 scripts/models/make_qwen2_random.py --qwen2.5-0.5b .bench-cache/models/qwen2.5-0.5b-random
        Qwen2.5-0.5B-Instruct's exact shapes (hidden 896, 24 layers, 14 heads / 2 KV heads, intermediate 4,864,
        vocabulary 151,936, tied embeddings) with random weights, in q8 (631 MB) and q4 (about 800 MB); never
        committed.

    python3 scripts/models/make_qwen2_random.py --qwen2.5-0.5b .bench-cache/models/qwen2.5-0.5b-random-grouped --grouped
        The same model with attention that does not repeat key/value heads (same logits), q8 only: what
        `AERIE_BENCH_LLM=onnx-q8-grouped npm run bench llm` measures.

It needs torch, onnx, onnxruntime, onnx-ir, tokenizers, transformers and jinja2 at the versions of
scripts/python-packages.txt (scripts/models/pyenv.py checks them and re-runs the script under .venv/ when that is
where they are; `bash scripts/python-env.sh` makes it). Deterministic: same environment, same files.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

pyenv.ensure(["numpy", "torch", "onnx", "ml_dtypes", "onnxruntime", "onnx-ir", "tokenizers", "transformers", "jinja2"])

import numpy as np  # noqa: E402

import common  # noqa: E402
import decoder  # noqa: E402
import q8_check  # noqa: E402
from decoder import Dims  # noqa: E402

TINY_NAME = "aerie-tiny-qwen2"
TINY = Dims(vocab=2048, hidden=64, intermediate=160, layers=2, heads=4, kv_heads=2)
"""Small enough to commit (a few hundred kB per file) and to run a whole tree build in a unit test; the grouped
key/value heads, biases on q/k/v, tied embeddings and RoPE of the real architecture."""
TINY_STD = 0.3
"""Scale of the tiny model's layer weights: large enough that the layers, not the tied embedding of the last
token, decide the next token (at 0.05 greedy decoding repeats the last token forever)."""
TINY_EMBED_STD = 0.05
QWEN25_05B = Dims(vocab=151_936, hidden=896, intermediate=4864, layers=24, heads=14, kv_heads=2)
"""Qwen2.5-0.5B-Instruct's config.json shapes."""
FULL_STD = 0.02
"""Qwen2's initializer_range."""
SEED = 20240611
"""Seed of every weight (numpy PCG64) for both models."""
MODEL_MAX_LENGTH = 32768
"""Qwen2.5's context length (tokenizer_config model_max_length and max_position_embeddings)."""

FIXTURE_MESSAGES = [
    {"role": "system", "content": "You are a Summarizing Text Portal"},
    {
        "role": "user",
        "content": "Write a summary of the following, including as many key details as possible: "
        "Once upon a time there was a gentleman who married, for his second wife, the proudest and most "
        "haughty woman that was ever seen.\n\n:",
    },
]
"""The paper's summarisation prompt on a line of the sample (as src/core/chat.ts builds it)."""
FIXTURE_TEXTS = [
    "Cinderella lost her glass slipper on the palace stairs.",
    "Café DÉJÀ vu — naïve résumé 42, 1999!\n\ttabs and  double  spaces",
    "emoji 🙂 and 中文 and 'quotes' we'll",
    "<|im_start|>user\nhi<|im_end|>",
]
"""Texts whose token ids the Node test compares (bytes outside the corpus, special tokens in text)."""
GREEDY_TOKENS = 12
"""Tokens of the greedy continuation the Node test must reproduce with its KV cache."""
DECODE_STEPS = 5
"""The Node test feeds the last prompt tokens one by one through the cache; their logits must match."""
TOLERANCE = {"fp32": 1e-4, "q4": 1e-4}
"""fp32 against torch; q4 against ONNX Runtime (Python) on the same file (its weights are 4-bit, its activations
float: no rounding step that another CPU could take differently). q8's is measured (q8_check.py)."""
ROOT = common.REPO_ROOT


def corpus() -> list[str]:
    """What the BPE is trained on: the sample story and the GloVe model's English word list (both committed)."""
    story = (ROOT / "tests" / "fixtures" / "cinderella.txt").read_text(encoding="utf-8")
    words = common.frequent_words()
    lines = [line for line in story.splitlines() if line.strip()]
    return lines + [" ".join(words[i : i + 50]) for i in range(0, len(words), 50)]


def tokenizer_json(regular_tokens: int) -> dict:
    import json

    tok = decoder.train_bpe(corpus(), regular_tokens)
    return json.loads(tok.to_str())


def write_model_folder(
    folder: Path, dims: Dims, tok_json: dict, std: float, embed_std: float, grouped: bool = False
) -> tuple[dict, dict[str, int]]:
    """Tokenizer, configs and the fp32 ONNX graph; returns the weights and the special token ids. The model never
    writes a special token or a piece of a character (decoder.partial_utf8_ids): it runs to its token limit and
    its text is valid UTF-8 that tokenises back to the same length."""
    if folder.exists():
        shutil.rmtree(folder)
    special = decoder.write_tokenizer(folder, tok_json, MODEL_MAX_LENGTH)
    decoder.write_configs(folder, dims, special)
    silent = sorted(set(special.values()) | set(decoder.partial_utf8_ids(tok_json)))
    weights = decoder.seeded_weights(dims, SEED, silent, std, embed_std)
    decoder.export(dims, weights, folder / common.FP32_FILE, grouped=grouped)
    return weights, special


def check_close(name: str, ours: np.ndarray, reference: np.ndarray, tolerance: float) -> float:
    worst = float(np.max(np.abs(ours - reference)))
    print(f"  {name}: max |Δ| {worst:.2e}")
    if not worst <= tolerance:
        raise AssertionError(f"{name}: max |Δ| {worst} > {tolerance}")
    return worst


def verify_graph(folder: Path, dims: Dims, hf, ids: list[int]) -> np.ndarray:
    """The exported graph against Hugging Face's model: a whole prefill, a prefill then single-token steps through
    the KV cache, and all-position logits. Returns the reference logits of every position."""
    reference = decoder.hf_logits(hf, ids)
    sess = decoder.session(folder / common.FP32_FILE)
    n = len(ids)
    check_close("prefill, last position", decoder.run_onnx(sess, dims, ids, [n])[-1], reference[-1], TOLERANCE["fp32"])
    steps = [n - DECODE_STEPS] + [1] * DECODE_STEPS
    check_close("prefill + 1-token steps", decoder.run_onnx(sess, dims, ids, steps)[-1], reference[-1], TOLERANCE["fp32"])
    every = decoder.run_onnx(sess, dims, ids, [n - 3, 3], keep_all=True)
    check_close("3 positions after a cache", every, reference[-3:], TOLERANCE["fp32"])
    return reference


def make_tiny() -> None:
    folder = common.MODELS_DIR / TINY_NAME
    tok_json = tokenizer_json(TINY.vocab - len(decoder.SPECIAL_TOKENS))
    weights, special = write_model_folder(folder, TINY, tok_json, TINY_STD, TINY_EMBED_STD)
    decoder.quantize_q8(folder / common.FP32_FILE, folder / common.Q8_FILE, weight_type="QUInt8")
    decoder.quantize_q4(folder / common.FP32_FILE, folder / decoder.Q4_FILE)

    from transformers import AutoTokenizer

    hf_tok = AutoTokenizer.from_pretrained(str(folder))
    if hf_tok.vocab_size + len(hf_tok.added_tokens_decoder) != TINY.vocab:
        raise AssertionError(f"tokenizer has {len(hf_tok)} ids, not {TINY.vocab}")
    prompt_ids = hf_tok.apply_chat_template(FIXTURE_MESSAGES, add_generation_prompt=True, tokenize=True)
    if not isinstance(prompt_ids, list):  # transformers 5 may return a BatchEncoding
        prompt_ids = list(prompt_ids["input_ids"])
    prompt_text = hf_tok.apply_chat_template(FIXTURE_MESSAGES, add_generation_prompt=True, tokenize=False)
    text_ids = [hf_tok.encode(t, add_special_tokens=False) for t in FIXTURE_TEXTS]
    for text, ids in zip(FIXTURE_TEXTS, text_ids):
        if hf_tok.decode(ids) != text:
            raise AssertionError(f"{text!r} does not round-trip: {hf_tok.decode(ids)!r}")

    hf = decoder.hf_model(TINY, weights)
    print("Checking the exported graph against transformers' Qwen2ForCausalLM:")
    reference = verify_graph(folder, TINY, hf, prompt_ids)
    greedy = decoder.hf_greedy(hf, prompt_ids, GREEDY_TOKENS)
    if set(greedy) & set(special.values()):
        raise AssertionError("the greedy continuation contains a special token")

    quantised = {}
    for dtype, rel in (("q8", common.Q8_FILE), ("q4", decoder.Q4_FILE)):
        logits = decoder.run_onnx(decoder.session(folder / rel), TINY, prompt_ids, [len(prompt_ids)])[-1]
        print(f"  {dtype} against fp32: max |Δ| {float(np.max(np.abs(logits - reference[-1]))):.2e} (quantisation)")
        quantised[dtype] = logits

    # The Node test reads the prompt with an empty cache and compares the last position's logits.
    probe = q8_check.Probe(decoder.prefill_feeds(TINY, prompt_ids), lambda outputs: outputs[0][0, -1])
    fp32 = q8_check.run_probes((folder / common.FP32_FILE).read_bytes(), [probe])
    check = q8_check.q8_check(folder / common.Q8_FILE, fp32, [probe], floor=TOLERANCE["fp32"])

    files = [
        "config.json",
        "generation_config.json",
        "tokenizer.json",
        "tokenizer_config.json",
        common.FP32_FILE,
        common.Q8_FILE,
        decoder.Q4_FILE,
    ]

    def floats(row: np.ndarray) -> list[float]:
        return [float(f"{x:.9g}") for x in row.tolist()]

    data = {
        "model": TINY_NAME,
        "generatedBy": "scripts/models/make_qwen2_random.py",
        "tolerance": {**TOLERANCE, "q8": check["tolerance"]},
        "q8Check": check,
        "sha256": {rel: common.sha256(folder / rel) for rel in files},
        "specialTokens": special,
        "texts": FIXTURE_TEXTS,
        "textIds": text_ids,
        "messages": FIXTURE_MESSAGES,
        "promptText": prompt_text,
        "promptIds": prompt_ids,
        "decodeSteps": DECODE_STEPS,
        "greedyIds": greedy,
        "logits": {"fp32": floats(reference[-1]), "q8": floats(quantised["q8"]), "q4": floats(quantised["q4"])},
        "logitsLast3": [floats(row) for row in reference[-3:]],
    }
    path = common.FIXTURES_DIR / f"{TINY_NAME}.expected.json"
    common.write_json(path, data, indent=None)
    for rel in files:
        print(f"{folder / rel}: {common.file_size(folder / rel)}")
    print(f"{path}: {common.file_size(path)}")


def make_full(out: Path, grouped: bool = False) -> None:
    """The benchmark model in `out`: q8 and q4; with `grouped`, the same weights with attention that does not
    repeat key/value heads (decoder._decoder_module), q8 only."""
    base = tokenizer_json(TINY.vocab - len(decoder.SPECIAL_TOKENS))
    tok_json = decoder.pad_vocabulary(base, QWEN25_05B.vocab)
    weights, _ = write_model_folder(out, QWEN25_05B, tok_json, FULL_STD, FULL_STD, grouped)
    hf = decoder.hf_model(QWEN25_05B, weights)
    del weights
    print("Checking the exported graph against transformers' Qwen2ForCausalLM:")
    ids = [int(i) for i in np.arange(3, 40) * 97 % 2000]
    verify_graph(out, QWEN25_05B, hf, ids)
    del hf
    files = [common.Q8_FILE] if grouped else [common.Q8_FILE, decoder.Q4_FILE]
    decoder.quantize_q8(out / common.FP32_FILE, out / common.Q8_FILE)
    if not grouped:
        decoder.quantize_q4(out / common.FP32_FILE, out / decoder.Q4_FILE)
    # The 2 GB fp32 graph (external data) was only a step towards q8 and q4.
    keep = {Path(rel).name for rel in files}
    for path in (out / "onnx").iterdir():
        if path.name not in keep:
            path.unlink()
    for rel in files:
        print(f"{out / rel}: {common.file_size(out / rel)}")


def main() -> None:
    decoder.cli(__doc__, make_tiny, make_full, "write the benchmark model (Qwen2.5-0.5B shapes, q8) to OUT instead of the tiny test model")


if __name__ == "__main__":
    main()
