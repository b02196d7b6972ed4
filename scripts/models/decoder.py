"""A Qwen2 decoder in the ONNX form transformers.js 4.3.1 runs for `text-generation`, and the pieces around it:
a byte-level BPE tokenizer with a ChatML chat template, seeded weights, the export and quantisation, and checks
against Hugging Face transformers' own Qwen2ForCausalLM.

The graph transformers.js expects of a decoder-only model (models/modeling_utils.js, decoder_forward and
addPastKeyValues; names as in optimum's exports):

    inputs   input_ids [batch_size, sequence_length] int64
             attention_mask [batch_size, total_sequence_length] int64
             position_ids [batch_size, sequence_length] int64
             past_key_values.{i}.key / .value [batch_size, kv_heads, past_sequence_length, head_dim] float32
             num_logits_to_keep [] int64 (0: logits of every position; k: of the last k)
    outputs  logits [batch_size, kept_positions, vocab_size] float32
             present.{i}.key / .value [batch_size, kv_heads, total_sequence_length, head_dim] float32

transformers.js starts generation with empty past tensors whose shapes it reads from the session's input metadata:
every symbolic dimension but `batch_size` becomes 0, so kv_heads and head_dim must be fixed numbers (they are).
`num_logits_to_keep` lets generation compute the vocabulary projection for the last prompt position only, as
recent exports do; without it the prefill of a long prompt would pay for a logits row per prompt token.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

import common

CHAT_TEMPLATE = (
    "{%- if messages and messages[0]['role'] == 'system' -%}"
    "{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' -}}"
    "{%- else -%}"
    "{{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{%- for message in messages -%}"
    "{%- if not (loop.first and message['role'] == 'system') -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)
"""ChatML, the format Qwen2.5-Instruct is trained on: <|im_start|>role\\ncontent<|im_end|>\\n per message, a default
system message when none is given, and the assistant's header as the generation prompt. Written here (not copied):
the same structure, without Qwen's tool-calling branches."""

ENDOFTEXT, IM_START, IM_END = "<|endoftext|>", "<|im_start|>", "<|im_end|>"
SPECIAL_TOKENS = [ENDOFTEXT, IM_START, IM_END]
"""Qwen2's special tokens, in Qwen's order, given the last ids of the vocabulary as in Qwen2.5."""

PRE_TOKENIZER_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
"""Qwen2's pre-tokenizer split (GPT-4's, with single digits): what Qwen2's tokenizer.json holds."""

Q8_OPS = ("MatMul", "Gather")
"""Quantised in q8: every weight matrix and the embedding table, as published q8 decoders do."""

Q4_BLOCK = 32
"""Block size of the q4 (MatMulNBits) weights."""

Q4_FILE = "onnx/model_q4.onnx"
"""What transformers.js fetches for dtype 'q4'."""


@dataclass(frozen=True)
class Dims:
    """The shape of a Qwen2 decoder."""

    vocab: int
    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    max_positions: int = 32768
    rope_theta: float = 1_000_000.0
    rms_eps: float = 1e-6

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


def train_bpe(corpus: Sequence[str], regular_tokens: int):
    """A byte-level BPE tokenizer in Qwen2's form (NFC, Qwen2's split, byte-level alphabet, no prefix space),
    trained on `corpus` to `regular_tokens` entries, with SPECIAL_TOKENS appended after them."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE(unk_token=None, fuse_unk=False, byte_fallback=False))
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(PRE_TOKENIZER_PATTERN), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False, trim_offsets=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=regular_tokens,
        min_frequency=2,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[],
    )
    tok.train_from_iterator(corpus, trainer=trainer)
    if tok.get_vocab_size() != regular_tokens:
        raise AssertionError(f"BPE learnt {tok.get_vocab_size()} tokens, not {regular_tokens}: a larger corpus?")
    tok.add_special_tokens(SPECIAL_TOKENS)
    return tok


def _byte_decoder() -> dict[str, int]:
    """The inverse of GPT-2's byte-level alphabet (bytes_to_unicode): printable bytes stand for themselves, the
    others for the characters from U+0100 on, in byte order."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    chars = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in chars:
            chars[b] = chr(256 + extra)
            extra += 1
    return {c: b for b, c in chars.items()}


def partial_utf8_ids(tokenizer_json: dict) -> list[int]:
    """Ids of the vocabulary entries whose bytes are not valid UTF-8 on their own (lone bytes ≥ 0x80, pieces of
    multi-byte characters). A model that never emits them writes only whole characters."""
    to_byte = _byte_decoder()
    out = []
    for token, i in tokenizer_json["model"]["vocab"].items():
        try:
            bytes(to_byte[c] for c in token).decode("utf-8")
        except (UnicodeDecodeError, KeyError):
            out.append(i)
    return sorted(out)


def pad_vocabulary(tokenizer_json: dict, size: int) -> dict:
    """A copy of a BPE tokenizer.json whose vocabulary is filled to `size` ids (special tokens kept last) with
    unreachable entries `<|fill_N|>` (no merge makes them; they decode to their own text). Gives a small trained
    tokenizer the vocabulary size of a real model, whose output layer then costs what the real one costs."""
    data = json.loads(json.dumps(tokenizer_json))
    vocab: dict[str, int] = data["model"]["vocab"]
    added = data["added_tokens"]
    first_special = min(t["id"] for t in added)
    filler = size - len(vocab) - len(added)
    if filler < 0:
        raise ValueError(f"the tokenizer already has {len(vocab) + len(added)} ids, more than {size}")
    for i in range(filler):
        vocab[f"<|fill_{i}|>"] = first_special + i
    for offset, token in enumerate(sorted(added, key=lambda t: t["id"])):
        token["id"] = first_special + filler + offset
    return data


def write_tokenizer(folder: Path, tokenizer_json: dict, model_max_length: int) -> dict[str, int]:
    """tokenizer.json and a tokenizer_config.json naming Qwen2Tokenizer, the chat template and the special
    tokens; returns the special tokens' ids."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "tokenizer.json", "w", encoding="utf-8") as f:
        json.dump(tokenizer_json, f, ensure_ascii=False, separators=(",", ":"))
    ids = {t["content"]: t["id"] for t in tokenizer_json["added_tokens"]}
    config = {
        "tokenizer_class": "Qwen2Tokenizer",
        "model_max_length": model_max_length,
        "chat_template": CHAT_TEMPLATE,
        "bos_token": None,
        "eos_token": IM_END,
        "pad_token": ENDOFTEXT,
        "unk_token": None,
        "add_prefix_space": False,
        "clean_up_tokenization_spaces": False,
        "errors": "replace",
        "split_special_tokens": False,
        "added_tokens_decoder": {
            str(ids[t]): {
                "content": t,
                "lstrip": False,
                "normalized": False,
                "rstrip": False,
                "single_word": False,
                "special": True,
            }
            for t in SPECIAL_TOKENS
        },
    }
    common.write_json(folder / "tokenizer_config.json", config)
    return ids


def write_configs(folder: Path, dims: Dims, special: dict[str, int]) -> None:
    """config.json (Qwen2ForCausalLM, the published Qwen2.5 field names) and generation_config.json (stop at
    <|im_end|> or <|endoftext|>; greedy unless the caller samples)."""
    config = {
        "architectures": ["Qwen2ForCausalLM"],
        "model_type": "qwen2",
        "vocab_size": dims.vocab,
        "hidden_size": dims.hidden,
        "intermediate_size": dims.intermediate,
        "num_hidden_layers": dims.layers,
        "num_attention_heads": dims.heads,
        "num_key_value_heads": dims.kv_heads,
        "head_dim": dims.head_dim,
        "hidden_act": "silu",
        "max_position_embeddings": dims.max_positions,
        "rope_theta": dims.rope_theta,
        "rms_norm_eps": dims.rms_eps,
        "tie_word_embeddings": True,
        "use_cache": True,
        "use_sliding_window": False,
        "attention_dropout": 0.0,
        "initializer_range": 0.02,
        "bos_token_id": special[ENDOFTEXT],
        "eos_token_id": special[IM_END],
        "pad_token_id": special[ENDOFTEXT],
        "torch_dtype": "float32",
    }
    common.write_json(folder / "config.json", config)
    generation = {
        "bos_token_id": special[ENDOFTEXT],
        "eos_token_id": [special[IM_END], special[ENDOFTEXT]],
        "pad_token_id": special[ENDOFTEXT],
        "do_sample": False,
    }
    common.write_json(folder / "generation_config.json", generation)


def seeded_weights(
    dims: Dims, seed: int, silent_ids: Sequence[int], std: float, embed_std: float | None = None
) -> dict[str, np.ndarray]:
    """Every parameter of Qwen2ForCausalLM (Hugging Face names) drawn from numpy's PCG64 with `seed` in a fixed
    order, so the weights do not depend on torch's generator or version. RMSNorm weights are 1; the embedding
    table's scale is `embed_std` (default `std`). The embedding rows of `silent_ids` are zero: with the tied
    output layer their logit is exactly 0, below the largest of thousands of random logits, so greedy decoding
    never picks them (a random model would otherwise stop at a random <|im_end|>, possibly at once)."""
    rng = np.random.Generator(np.random.PCG64(seed))

    def normal(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape, dtype=np.float32) * std).astype(np.float32)

    h, d, kv = dims.hidden, dims.head_dim, dims.kv_heads
    w: dict[str, np.ndarray] = {}
    embed = normal(dims.vocab, h) * ((embed_std or std) / std)
    embed[list(silent_ids)] = 0.0
    w["model.embed_tokens.weight"] = embed
    for i in range(dims.layers):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = np.ones(h, np.float32)
        w[p + "self_attn.q_proj.weight"] = normal(dims.heads * d, h)
        w[p + "self_attn.q_proj.bias"] = normal(dims.heads * d)
        w[p + "self_attn.k_proj.weight"] = normal(kv * d, h)
        w[p + "self_attn.k_proj.bias"] = normal(kv * d)
        w[p + "self_attn.v_proj.weight"] = normal(kv * d, h)
        w[p + "self_attn.v_proj.bias"] = normal(kv * d)
        w[p + "self_attn.o_proj.weight"] = normal(h, dims.heads * d)
        w[p + "post_attention_layernorm.weight"] = np.ones(h, np.float32)
        w[p + "mlp.gate_proj.weight"] = normal(dims.intermediate, h)
        w[p + "mlp.up_proj.weight"] = normal(dims.intermediate, h)
        w[p + "mlp.down_proj.weight"] = normal(h, dims.intermediate)
    w["model.norm.weight"] = np.ones(h, np.float32)
    return w


def hf_model(dims: Dims, weights: dict[str, np.ndarray]):
    """Hugging Face transformers' Qwen2ForCausalLM with these weights (eager attention, fp32, eval mode): the
    reference the exported graph is checked against."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=dims.vocab,
        hidden_size=dims.hidden,
        intermediate_size=dims.intermediate,
        num_hidden_layers=dims.layers,
        num_attention_heads=dims.heads,
        num_key_value_heads=dims.kv_heads,
        max_position_embeddings=dims.max_positions,
        rope_parameters={"rope_type": "default", "rope_theta": dims.rope_theta},
        rms_norm_eps=dims.rms_eps,
        tie_word_embeddings=True,
        attn_implementation="eager",
    )
    torch.manual_seed(0)  # the initial values are all replaced; seeded only so nothing varies between runs
    model = Qwen2ForCausalLM(config)
    state = {name: torch.from_numpy(array) for name, array in weights.items()}
    state["lm_head.weight"] = state["model.embed_tokens.weight"]
    model.load_state_dict(state, strict=True)
    return model.float().eval()


class _ParamView:
    """Looks parameters up by their Hugging Face names (ParameterDict keys cannot contain dots)."""

    def __init__(self, params):
        self.params = params

    def __getitem__(self, name: str):
        return self.params[name.replace(".", "__")]


def _decoder_module(dims: Dims, weights: dict[str, np.ndarray], grouped: bool = False):
    """Qwen2's forward pass written for tracing: every shape comes from the inputs, the causal and padding mask
    from comparisons of positions, grouped-query attention by repeating key/value heads (as Hugging Face's
    `repeat_kv` does, so as exports of it do), or with `grouped` by folding each key/value head's group of query
    heads into its rows (same numbers, no repeated copy of the cache: compare_grouped_attention.py)."""
    import torch
    from torch import nn

    # Parameters (not captured tensors), so the exporter stores them as initializers, which quantisation needs.
    params = nn.ParameterDict(
        {name.replace(".", "__"): nn.Parameter(torch.from_numpy(array), requires_grad=False) for name, array in weights.items()}
    )
    t = _ParamView(params)
    inv_freq = 1.0 / (dims.rope_theta ** (torch.arange(0, dims.head_dim, 2, dtype=torch.int64).float() / dims.head_dim))

    def linear(x, name, bias=False):
        y = x @ t[name + ".weight"].T
        return y + t[name + ".bias"] if bias else y

    def rms(x, name):
        variance = x.pow(2).mean(-1, keepdim=True)
        return t[name] * (x * torch.rsqrt(variance + dims.rms_eps))

    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.params = params

        def forward(self, input_ids, attention_mask, position_ids, num_logits_to_keep, *past):
            batch, seq = input_ids.shape
            x = t["model.embed_tokens.weight"][input_ids]
            freqs = position_ids.float()[:, :, None] * inv_freq[None, None, :]
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos()[:, None], emb.sin()[:, None]
            past_len = past[0].shape[2]
            total = attention_mask.shape[1]
            query_pos = torch.arange(seq)[None, :, None] + past_len
            key_pos = torch.arange(total)[None, None, :]
            allowed = (key_pos <= query_pos) & (attention_mask[:, None, :] > 0)
            mask = torch.where(allowed, 0.0, torch.finfo(torch.float32).min)[:, None]
            presents = []
            group = dims.heads // dims.kv_heads
            for i in range(dims.layers):
                p = f"model.layers.{i}."
                h = rms(x, p + "input_layernorm.weight")
                q = linear(h, p + "self_attn.q_proj", True).view(batch, seq, dims.heads, dims.head_dim).transpose(1, 2)
                k = linear(h, p + "self_attn.k_proj", True).view(batch, seq, dims.kv_heads, dims.head_dim).transpose(1, 2)
                v = linear(h, p + "self_attn.v_proj", True).view(batch, seq, dims.kv_heads, dims.head_dim).transpose(1, 2)
                q = q * cos + rotate_half(q) * sin
                k = k * cos + rotate_half(k) * sin
                k = torch.cat((past[2 * i], k), dim=2)
                v = torch.cat((past[2 * i + 1], v), dim=2)
                presents += [k, v]
                if grouped:
                    q = q.reshape(batch, dims.kv_heads, group * seq, dims.head_dim)
                    folded = mask.expand(batch, 1, seq, total).repeat(1, 1, group, 1)
                    scores = (q @ k.transpose(2, 3)) / (dims.head_dim**0.5) + folded
                    attn = (torch.softmax(scores, dim=-1) @ v).reshape(batch, dims.heads, seq, dims.head_dim)
                else:
                    k = k.repeat_interleave(group, dim=1)
                    v = v.repeat_interleave(group, dim=1)
                    scores = (q @ k.transpose(2, 3)) / (dims.head_dim**0.5) + mask
                    attn = torch.softmax(scores, dim=-1) @ v
                attn = attn.transpose(1, 2).reshape(batch, seq, dims.heads * dims.head_dim)
                x = x + linear(attn, p + "self_attn.o_proj")
                h = rms(x, p + "post_attention_layernorm.weight")
                gate = linear(h, p + "mlp.gate_proj")
                x = x + linear(torch.nn.functional.silu(gate) * linear(h, p + "mlp.up_proj"), p + "mlp.down_proj")
            x = rms(x, "model.norm.weight")
            keep = torch.where(num_logits_to_keep > 0, num_logits_to_keep, seq)
            x = x.index_select(1, torch.arange(seq - keep, seq))
            logits = x @ t["model.embed_tokens.weight"].T
            return (logits, *presents)

    return Decoder().eval()


def io_names(dims: Dims) -> tuple[list[str], list[str]]:
    past = [f"past_key_values.{i}.{kind}" for i in range(dims.layers) for kind in ("key", "value")]
    present = [f"present.{i}.{kind}" for i in range(dims.layers) for kind in ("key", "value")]
    return ["input_ids", "attention_mask", "position_ids", "num_logits_to_keep", *past], ["logits", *present]


def export(dims: Dims, weights: dict[str, np.ndarray], path: Path, grouped: bool = False) -> None:
    """Exports the decoder with the legacy TorchScript exporter (opset 17, as the embedding models); a graph over
    2 GB is written with its weights in `<file>_data` beside it (only ever a step towards the quantised file).
    `grouped`: attention without repeated key/value heads (`_decoder_module`)."""
    import onnx
    import torch

    module = _decoder_module(dims, weights, grouped)
    inputs, outputs = io_names(dims)
    # Batch 2, 3 new tokens after 4 cached ones: no dimension of the sample is 1 or equal to another, so the
    # tracer cannot fold a shape into a constant by accident.
    batch, seq, past_len = 2, 3, 4
    sample = (
        torch.ones((batch, seq), dtype=torch.int64),
        torch.ones((batch, past_len + seq), dtype=torch.int64),
        torch.arange(past_len, past_len + seq, dtype=torch.int64)[None].repeat(batch, 1),
        torch.tensor(0, dtype=torch.int64),
        *[torch.zeros((batch, dims.kv_heads, past_len, dims.head_dim)) for _ in range(2 * dims.layers)],
    )
    axes = {
        "input_ids": {0: "batch_size", 1: "sequence_length"},
        "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
        "position_ids": {0: "batch_size", 1: "sequence_length"},
        "logits": {0: "batch_size", 1: "kept_sequence_length"},
    }
    for name in inputs[4:]:
        axes[name] = {0: "batch_size", 2: "past_sequence_length"}
    for name in outputs[1:]:
        axes[name] = {0: "batch_size", 2: "total_sequence_length"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            module,
            sample,
            str(path),
            input_names=inputs,
            output_names=outputs,
            dynamic_axes=axes,
            opset_version=common.ONNX_OPSET,
            dynamo=False,
        )
    onnx.checker.check_model(str(path))


def quantize_q8(src: Path, dst: Path, weight_type: str = "QInt8") -> None:
    """q8: dynamic int8 quantisation of MatMul weights and the embedding table (one file, whatever the source);
    signed weights as published q8 decoders, or "QUInt8" (exact on every CPU: q8_check.py)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        model_input=str(src),
        model_output=str(dst),
        weight_type=getattr(QuantType, weight_type),
        op_types_to_quantize=list(Q8_OPS),
        extra_options={"MatMulConstBOnly": True},
        use_external_data_format=False,
    )


def quantize_q4(src: Path, dst: Path) -> None:
    """q4: 4-bit block-quantised MatMul weights (MatMulNBits, blocks of Q4_BLOCK, symmetric), the weight format
    of the q4 and q4f16 files published for WebGPU."""
    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    quantizer = MatMulNBitsQuantizer(onnx.load(str(src)), block_size=Q4_BLOCK, is_symmetric=True)
    quantizer.process()
    quantizer.model.save_model_to_file(str(dst), use_external_data_format=False)


def session(path: Path, threads: int = 1):
    return common.make_session(path, threads)


def empty_past(dims: Dims, batch: int = 1) -> dict[str, np.ndarray]:
    names, _ = io_names(dims)
    return {n: np.zeros((batch, dims.kv_heads, 0, dims.head_dim), np.float32) for n in names[4:]}


def prefill_feeds(dims: Dims, ids: Sequence[int]) -> dict[str, np.ndarray]:
    """The inputs of reading `ids` with an empty cache, keeping the last position's logits."""
    return {
        "input_ids": np.array([list(ids)], dtype=np.int64),
        "attention_mask": np.ones((1, len(ids)), dtype=np.int64),
        "position_ids": np.arange(len(ids), dtype=np.int64)[None],
        "num_logits_to_keep": np.array(1, dtype=np.int64),
        **empty_past(dims),
    }


def run_onnx(sess, dims: Dims, ids: Sequence[int], chunks: Sequence[int], keep_all: bool = False) -> np.ndarray:
    """Runs `ids` through the ONNX decoder in pieces of the given sizes, carrying the KV cache, as generation
    does; returns the logits of the last run (all of its positions when `keep_all`, else only the last)."""
    past = empty_past(dims)
    done = 0
    logits = None
    for size in chunks:
        piece = np.array([ids[done : done + size]], dtype=np.int64)
        feeds = {
            "input_ids": piece,
            "attention_mask": np.ones((1, done + size), dtype=np.int64),
            "position_ids": np.arange(done, done + size, dtype=np.int64)[None],
            "num_logits_to_keep": np.array(0 if keep_all else 1, dtype=np.int64),
            **past,
        }
        out = sess.run(None, feeds)
        logits = out[0][0]
        past = {name.replace("present", "past_key_values"): value for name, value in zip(io_names(dims)[1][1:], out[1:])}
        done += size
    if done != len(ids):
        raise ValueError("chunks must cover the ids")
    return logits


def hf_logits(model, ids: Sequence[int]) -> np.ndarray:
    """Logits of every position of `ids` from the Hugging Face model (no cache)."""
    import torch

    with torch.no_grad():
        return model(input_ids=torch.tensor([list(ids)]), use_cache=False).logits[0].numpy()


def hf_greedy(model, ids: Sequence[int], new_tokens: int) -> list[int]:
    """Greedy continuation by the Hugging Face model with its own KV cache."""
    import torch

    with torch.no_grad():
        out = model.generate(
            input_ids=torch.tensor([list(ids)]),
            attention_mask=torch.ones((1, len(ids)), dtype=torch.int64),
            max_new_tokens=new_tokens,
            min_new_tokens=new_tokens,
            do_sample=False,
            pad_token_id=0,
        )
    return out[0, len(ids) :].tolist()


def cli(doc: str, make_tiny, make_full, full_help: str) -> None:
    """The command line of the decoder scripts: no argument makes the committed tiny model, `--qwen2.5-0.5b OUT`
    the benchmark's Qwen2.5-0.5B-shaped one in OUT."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--qwen2.5-0.5b", dest="full", type=Path, default=None, metavar="OUT", help=full_help)
    parser.add_argument(
        "--grouped",
        action="store_true",
        help="with --qwen2.5-0.5b: attention without repeated key/value heads (q8 only; the bench's onnx-q8-grouped)",
    )
    args = parser.parse_args()
    if args.grouped and args.full is None:
        parser.error("--grouped needs --qwen2.5-0.5b OUT")
    if args.full is None:
        make_tiny()
    elif args.grouped:
        make_full(args.full, grouped=True)
    else:
        make_full(args.full)
