"""Writes the random-weight Qwen2 decoders of make_qwen2_random.py as GGUF files, the format llama.cpp reads (the
built-in model's CPU runtime, @wllama/wllama): the same seeded weights, tokenizer and chat template, so the ONNX
and GGUF copies of a model are one model in two formats.

    python3 scripts/models/make_qwen2_gguf.py
        public/models/aerie-tiny-qwen2/aerie-tiny-qwen2-q8_0.gguf (and -f32.gguf) beside the ONNX files, and
        tests/fixtures/models/aerie-tiny-qwen2.gguf.expected.json: each file's greedy reply to the fixture prompt as
        transformers' Qwen2ForCausalLM writes it with that file's weights (dequantised), which llama.cpp must
        reproduce (e2e/llama-cpp-model.spec.ts).

    python3 scripts/models/make_qwen2_gguf.py --qwen2.5-0.5b .bench-cache/models/qwen2.5-0.5b-random
        Qwen2.5-0.5B-Instruct's exact shapes in Q8_0 and Q4_0 (model-q8_0.gguf, model-q4_0.gguf) for
        `npm run bench llm`; never committed.

Quantisation is gguf-py's (numpy): Q8_0 (blocks of 32 int8 with an fp16 scale) or Q4_0 (blocks of 32 4-bit values)
for every weight matrix and the embedding table (tied to the output layer, as in Qwen2.5-0.5B); norms and biases
stay f32. Needs numpy, gguf, tokenizers and torch at the versions of scripts/python-packages.txt
(`bash scripts/python-env.sh` makes an environment with them). Deterministic: same environment, same files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pyenv  # noqa: E402

# make_qwen2_random sets up the environment it needs (pyenv.ensure) and holds the models' names, shapes and seeds.
import make_qwen2_random as source  # noqa: E402

pyenv.ensure(["gguf"])

import numpy as np  # noqa: E402

import common  # noqa: E402
import decoder  # noqa: E402
from decoder import Dims  # noqa: E402

GREEDY_TOKENS = 24
"""Tokens of each file's greedy reply."""
AGREE_TOKENS = {"f32": GREEDY_TOKENS, "q8_0": 8}
"""How many of them llama.cpp must reproduce: all for f32 weights (its f32 kernels compute what torch does, up to
rounding); the first few for Q8_0, whose kernels also round the activations to 8 bits, which a chaotic random
model turns into another token after a while (native llama.cpp agreed on 12 of 24 here)."""

TOKEN_NORMAL, TOKEN_CONTROL = 1, 3
"""llama.cpp's token types (gguf.TokenType): a regular piece, a special token never written as text."""


def gguf_types():
    import gguf

    return {"f32": gguf.GGMLQuantizationType.F32, "q8_0": gguf.GGMLQuantizationType.Q8_0, "q4_0": gguf.GGMLQuantizationType.Q4_0}


FILE_TYPES = {"f32": 0, "q8_0": 7, "q4_0": 2}
"""general.file_type (llama_ftype) of a file whose matrices are all of one type."""


def tensor_names(dims: Dims) -> dict[str, str]:
    """Hugging Face parameter name -> GGUF tensor name (llama.cpp's qwen2 architecture; the output layer is the tied
    embedding, so there is no `output.weight`)."""
    names = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight"}
    per_layer = {
        "input_layernorm.weight": "attn_norm.weight",
        "self_attn.q_proj.weight": "attn_q.weight",
        "self_attn.q_proj.bias": "attn_q.bias",
        "self_attn.k_proj.weight": "attn_k.weight",
        "self_attn.k_proj.bias": "attn_k.bias",
        "self_attn.v_proj.weight": "attn_v.weight",
        "self_attn.v_proj.bias": "attn_v.bias",
        "self_attn.o_proj.weight": "attn_output.weight",
        "post_attention_layernorm.weight": "ffn_norm.weight",
        "mlp.gate_proj.weight": "ffn_gate.weight",
        "mlp.up_proj.weight": "ffn_up.weight",
        "mlp.down_proj.weight": "ffn_down.weight",
    }
    for i in range(dims.layers):
        for hf, ours in per_layer.items():
            names[f"model.layers.{i}.{hf}"] = f"blk.{i}.{ours}"
    return names


def quantised(weights: dict[str, np.ndarray], kind: str) -> dict[str, tuple[np.ndarray, object]]:
    """Each weight as stored in a `kind` file: (data, ggml type). Matrices are quantised, vectors stay f32."""
    import gguf

    types = gguf_types()
    out = {}
    for name, array in weights.items():
        if array.ndim == 2 and kind != "f32":
            out[name] = (gguf.quants.quantize(array, types[kind]), types[kind])
        else:
            out[name] = (array.astype(np.float32), types["f32"])
    return out


def dequantised(stored: dict[str, tuple[np.ndarray, object]]) -> dict[str, np.ndarray]:
    """The weights a file holds, back in f32: what llama.cpp multiplies with (the reference's weights)."""
    import gguf

    return {name: gguf.quants.dequantize(data, qtype).astype(np.float32) for name, (data, qtype) in stored.items()}


def write_gguf(path: Path, dims: Dims, tok_json: dict, stored: dict, kind: str, name: str) -> None:
    """One GGUF file: Qwen2's hyper-parameters, the byte-level BPE (tokens, merges, types, special ids), the ChatML
    template, and the tensors."""
    import gguf

    vocab: dict[str, int] = dict(tok_json["model"]["vocab"])
    special = {t["content"]: t["id"] for t in tok_json["added_tokens"]}
    vocab.update(special)
    if sorted(vocab.values()) != list(range(dims.vocab)):
        raise AssertionError(f"token ids are not 0..{dims.vocab - 1}")
    tokens = [""] * dims.vocab
    for token, i in vocab.items():
        tokens[i] = token
    types = [TOKEN_CONTROL if t in special else TOKEN_NORMAL for t in tokens]
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok_json["model"]["merges"]]

    path.parent.mkdir(parents=True, exist_ok=True)
    w = gguf.GGUFWriter(str(path), "qwen2")
    w.add_name(name)
    w.add_file_type(FILE_TYPES[kind])
    w.add_context_length(source.MODEL_MAX_LENGTH)
    w.add_embedding_length(dims.hidden)
    w.add_block_count(dims.layers)
    w.add_feed_forward_length(dims.intermediate)
    w.add_head_count(dims.heads)
    w.add_head_count_kv(dims.kv_heads)
    w.add_rope_freq_base(dims.rope_theta)
    w.add_layer_norm_rms_eps(dims.rms_eps)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(special[decoder.ENDOFTEXT])
    w.add_eos_token_id(special[decoder.IM_END])
    w.add_pad_token_id(special[decoder.ENDOFTEXT])
    w.add_add_bos_token(False)
    w.add_chat_template(decoder.CHAT_TEMPLATE)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    names = tensor_names(dims)
    for hf_name, (data, qtype) in stored.items():
        w.add_tensor(names[hf_name], data, raw_dtype=qtype)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def silent_ids(tok_json: dict) -> list[int]:
    """The ids whose embedding rows are zero (make_qwen2_random.py): special tokens and partial UTF-8 pieces."""
    special = [t["id"] for t in tok_json["added_tokens"]]
    return sorted(set(special) | set(decoder.partial_utf8_ids(tok_json)))


def make_tiny() -> None:
    folder = common.MODELS_DIR / source.TINY_NAME
    tok_json = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    weights = decoder.seeded_weights(source.TINY, source.SEED, silent_ids(tok_json), source.TINY_STD, source.TINY_EMBED_STD)

    from transformers import AutoTokenizer

    hf_tok = AutoTokenizer.from_pretrained(str(folder))
    prompt_ids = hf_tok.apply_chat_template(source.FIXTURE_MESSAGES, add_generation_prompt=True, tokenize=True)
    if not isinstance(prompt_ids, list):  # transformers 5 may return a BatchEncoding
        prompt_ids = list(prompt_ids["input_ids"])
    files = {}
    for kind in ("f32", "q8_0"):
        rel = f"{source.TINY_NAME}-{kind}.gguf"
        stored = quantised(weights, kind)
        write_gguf(folder / rel, source.TINY, tok_json, stored, kind, f"{source.TINY_NAME} ({kind}, random weights)")
        hf = decoder.hf_model(source.TINY, dequantised(stored))
        greedy = decoder.hf_greedy(hf, prompt_ids, GREEDY_TOKENS)
        files[kind] = {
            "file": rel,
            "sha256": common.sha256(folder / rel),
            "greedyIds": greedy,
            "greedyText": hf_tok.decode(greedy, skip_special_tokens=True),
            "agreeTokens": AGREE_TOKENS[kind],
            "agreeText": hf_tok.decode(greedy[: AGREE_TOKENS[kind]], skip_special_tokens=True),
        }
        print(f"{folder / rel}: {common.file_size(folder / rel)}; greedy {files[kind]['greedyText']!r}")
    data = {
        "model": source.TINY_NAME,
        "generatedBy": "scripts/models/make_qwen2_gguf.py",
        "messages": source.FIXTURE_MESSAGES,
        "promptTokens": len(prompt_ids),
        "newTokens": GREEDY_TOKENS,
        "files": files,
    }
    path = common.FIXTURES_DIR / f"{source.TINY_NAME}.gguf.expected.json"
    common.write_json(path, data)
    print(f"{path}: {common.file_size(path)}")


def make_full(out: Path) -> None:
    base = source.tokenizer_json(source.TINY.vocab - len(decoder.SPECIAL_TOKENS))
    tok_json = decoder.pad_vocabulary(base, source.QWEN25_05B.vocab)
    weights = decoder.seeded_weights(source.QWEN25_05B, source.SEED, silent_ids(tok_json), source.FULL_STD, source.FULL_STD)
    out.mkdir(parents=True, exist_ok=True)
    for kind in ("q8_0", "q4_0"):
        path = out / f"model-{kind}.gguf"
        write_gguf(path, source.QWEN25_05B, tok_json, quantised(weights, kind), kind, f"Qwen2.5-0.5B shapes ({kind}, random)")
        print(f"{path}: {common.file_size(path)}")


def main() -> None:
    decoder.cli(__doc__, make_tiny, make_full, "write the benchmark model (Qwen2.5-0.5B shapes, Q8_0 and Q4_0) to OUT instead of the tiny test model")


if __name__ == "__main__":
    main()
