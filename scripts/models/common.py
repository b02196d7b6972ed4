"""Shared helpers of the model generators: WordPiece tokenizers, ONNX export and quantisation in the file layout
transformers.js reads, and the reference embedding (tokenise, run, mean-pool, normalise) that the committed
expected-embedding fixtures and bench/embed-native.py compute.

transformers.js 4.3.1 reads, for `pipeline('feature-extraction', name)` with the default subfolder 'onnx':
config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx (dtype 'fp32') or
onnx/model_quantized.onnx (dtype 'q8'; src/utils/dtypes.js maps q8 to the suffix '_quantized').
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
"""BERT's special tokens, given ids 0..4 in this order (so [PAD] is 0, as BertConfig.pad_token_id expects)."""

PAD, UNK, CLS, SEP, MASK = SPECIAL_TOKENS

ONNX_OPSET = 17
"""Opset of the legacy TorchScript exporter that ORT-web and ORT-node both run (ENVIRONMENT.md)."""

FP32_FILE = "onnx/model.onnx"
"""What transformers.js fetches for dtype 'fp32'."""

Q8_FILE = "onnx/model_quantized.onnx"
"""What transformers.js fetches for dtype 'q8'."""

REPO_ROOT = Path(__file__).resolve().parents[2]
MODELS_DIR = REPO_ROOT / "public" / "models"
FIXTURES_DIR = REPO_ROOT / "tests" / "fixtures" / "models"


def build_tokenizer(vocab: Sequence[str]):
    """A lower-casing BERT WordPiece tokenizer (the pipeline of bert-base-uncased's tokenizer.json) over `vocab`.

    Built with the `tokenizers` library directly: transformers 5's BertTokenizerFast(vocab_file=...) silently
    ignores the file and builds a 5-token vocabulary. `vocab` must start with SPECIAL_TOKENS.
    """
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    if list(vocab[: len(SPECIAL_TOKENS)]) != SPECIAL_TOKENS:
        raise ValueError("the vocabulary must start with " + ", ".join(SPECIAL_TOKENS))
    ids = {token: i for i, token in enumerate(vocab)}
    if len(ids) != len(vocab):
        raise ValueError(f"duplicate tokens: {len(vocab) - len(ids)}")
    tok = Tokenizer(models.WordPiece(vocab=ids, unk_token=UNK, max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single=f"{CLS}:0 $A:0 {SEP}:0",
        pair=f"{CLS}:0 $A:0 {SEP}:0 $B:1 {SEP}:1",
        special_tokens=[(CLS, ids[CLS]), (SEP, ids[SEP])],
    )
    tok.decoder = decoders.WordPiece(prefix="##")
    tok.add_special_tokens(SPECIAL_TOKENS)
    assert tok.get_vocab_size() == len(vocab), (tok.get_vocab_size(), len(vocab))
    return tok


def pre_tokens(tok, text: str) -> list[str]:
    """The words BERT's normaliser and pre-tokeniser cut `text` into (before WordPiece)."""
    return [piece for piece, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(text))]


def assert_real_words(tok, words: Iterable[str]) -> None:
    """Fails unless every word is one vocabulary entry (not [UNK], not split): guards against a broken vocab."""
    unk_id = tok.token_to_id(UNK)
    for word in words:
        enc = tok.encode(word, add_special_tokens=False)
        if len(enc.ids) != 1 or enc.ids[0] == unk_id:
            raise AssertionError(f"{word!r} tokenises to {enc.tokens}")


def write_tokenizer_files(folder: Path, tok, model_max_length: int) -> None:
    """tokenizer.json plus the tokenizer_config.json transformers.js needs to pick BertTokenizer and truncate."""
    folder.mkdir(parents=True, exist_ok=True)
    tok.save(str(folder / "tokenizer.json"), pretty=False)
    write_tokenizer_config(folder, model_max_length)


def write_tokenizer_json(path: Path, vocab: Sequence[str]) -> None:
    """The tokenizer.json `build_tokenizer(vocab).save()` writes, written directly (no `tokenizers` library): a
    lower-casing BERT WordPiece pipeline, [CLS] … [SEP] around each sequence. `vocab` starts with SPECIAL_TOKENS."""
    if list(vocab[: len(SPECIAL_TOKENS)]) != SPECIAL_TOKENS:
        raise ValueError("the vocabulary must start with " + ", ".join(SPECIAL_TOKENS))
    ids = {token: i for i, token in enumerate(vocab)}
    if len(ids) != len(vocab):
        raise ValueError(f"duplicate tokens: {len(vocab) - len(ids)}")

    def special(token: str, type_id: int) -> dict:
        return {"SpecialToken": {"id": token, "type_id": type_id}}

    def sequence(name: str, type_id: int) -> dict:
        return {"Sequence": {"id": name, "type_id": type_id}}

    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True}
            for t in SPECIAL_TOKENS
        ],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special(CLS, 0), sequence("A", 0), special(SEP, 0)],
            "pair": [special(CLS, 0), sequence("A", 0), special(SEP, 0), sequence("B", 1), special(SEP, 1)],
            "special_tokens": {t: {"id": t, "ids": [ids[t]], "tokens": [t]} for t in (CLS, SEP)},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": UNK, "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": ids},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))


def write_tokenizer_config(folder: Path, model_max_length: int) -> None:
    """tokenizer_config.json: what transformers.js needs to pick BertTokenizer and truncate."""
    config = {
        "tokenizer_class": "BertTokenizer",
        "do_lower_case": True,
        "strip_accents": None,
        "tokenize_chinese_chars": True,
        "model_max_length": model_max_length,
        "clean_up_tokenization_spaces": True,
        "pad_token": PAD,
        "unk_token": UNK,
        "cls_token": CLS,
        "sep_token": SEP,
        "mask_token": MASK,
    }
    write_json(folder / "tokenizer_config.json", config)


def write_config(folder: Path, config) -> None:
    """config.json of a BertConfig, naming the architecture transformers.js maps to BertModel."""
    data = config.to_dict()
    data["architectures"] = ["BertModel"]
    data["model_type"] = "bert"
    # Fields that only describe the Python runtime; transformers.js ignores them and they churn between versions.
    for key in ("transformers_version", "dtype", "torch_dtype", "_name_or_path"):
        data.pop(key, None)
    write_json(folder / "config.json", data)


def write_json(path: Path, data, indent: int | None = 2) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=indent, ensure_ascii=False)
        f.write("\n")


def export_onnx(model, path: Path) -> None:
    """Exports a BertModel as (input_ids, attention_mask, token_type_ids) -> last_hidden_state, dynamic batch
    and sequence axes; the legacy exporter (dynamo=False) with opset 17, the form ENVIRONMENT.md verified."""
    import torch

    class LastHiddenState(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.last_hidden_state

    model.eval()
    wrapper = LastHiddenState(model).eval()
    sample = torch.ones((2, 8), dtype=torch.long)
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            wrapper,
            (sample, sample, torch.zeros_like(sample)),
            str(path),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={
                "input_ids": {0: "batch_size", 1: "sequence_length"},
                "attention_mask": {0: "batch_size", 1: "sequence_length"},
                "token_type_ids": {0: "batch_size", 1: "sequence_length"},
                "last_hidden_state": {0: "batch_size", 1: "sequence_length"},
            },
            opset_version=ONNX_OPSET,
            dynamo=False,
        )
    import onnx

    onnx.checker.check_model(str(path))


def quantize_q8(
    src: Path, dst: Path, op_types: Sequence[str], matmul_const_b_only: bool, weight_type: str = "QInt8"
) -> None:
    """Dynamic 8-bit quantisation of `op_types`, the recipe of transformers.js's 'q8' files: signed weights
    (QInt8) by default; "QUInt8" for the committed test models, whose integer products are then exact on every
    CPU (q8_check.py says why)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        model_input=str(src),
        model_output=str(dst),
        weight_type=getattr(QuantType, weight_type),
        op_types_to_quantize=list(op_types),
        extra_options={"MatMulConstBOnly": matmul_const_b_only},
    )


def make_session(path: Path, threads: int = 1):
    """A CPU ONNX Runtime session with a fixed thread count (1 by default: repeatable sums)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


class BrowserTokenizer:
    """tokenizer.json of a model folder, encoding as transformers.js 4.3.1's feature-extraction pipeline does:
    special tokens added, then the whole sequence cut to `max_length` (transformers.js truncates after adding
    [CLS]/[SEP], so a long text loses its [SEP], unlike the Python tokenizers' own truncation), then padded with
    [PAD] to the longest sequence of the batch."""

    def __init__(self, folder: Path, max_length: int | None = None):
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        if max_length is None:
            with open(folder / "tokenizer_config.json", encoding="utf-8") as f:
                max_length = int(json.load(f)["model_max_length"])
        self.max_length = max_length
        self.pad_id = self.tokenizer.token_to_id(PAD)

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each text, truncated, not padded."""
        return [e.ids[: self.max_length] for e in self.tokenizer.encode_batch(list(texts))]

    def encode_batch(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Padded int64 input tensors of one batch."""
        ids = self.token_ids(texts)
        width = max(len(row) for row in ids)
        input_ids = np.full((len(ids), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for i, row in enumerate(ids):
            input_ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        # Single sequences only: every token has type 0.
        return {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}


def load_tokenizer(folder: Path, max_length: int | None = None) -> BrowserTokenizer:
    """The tokenizer of a model folder; `max_length` defaults to tokenizer_config's model_max_length, which is
    what transformers.js's feature-extraction pipeline truncates to."""
    return BrowserTokenizer(folder, max_length)


def mean_pool_normalise(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over the unmasked tokens, then L2 normalisation: transformers.js's {pooling: 'mean', normalize: true}."""
    m = mask.astype(np.float32)[:, :, None]
    pooled = (hidden * m).sum(axis=1) / m.sum(axis=1)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def embed(session, tok: BrowserTokenizer, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
    """Sentence embeddings (n x dim, float32) of `texts` through an ONNX session."""
    names = {i.name for i in session.get_inputs()}
    out = []
    for start in range(0, len(texts), batch_size):
        feeds = tok.encode_batch(texts[start : start + batch_size])
        hidden = session.run(["last_hidden_state"], {k: v for k, v in feeds.items() if k in names})[0]
        out.append(mean_pool_normalise(hidden, feeds["attention_mask"]))
    return np.concatenate(out, axis=0).astype(np.float32)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_expected(
    model_name: str,
    texts: Sequence[str],
    dtypes: dict[str, str],
    tolerance: dict[str, float],
    extra: dict | None = None,
) -> Path:
    """Writes tests/fixtures/models/<model>.expected.json: the texts, their token ids and, per dtype, the
    embeddings Python computes for them, plus the SHA-256 of every file they were computed from (so the test
    can tell a regenerated model from a stale fixture), and `extra` fields (e.g. q8_check.py's evidence)."""
    folder = MODELS_DIR / model_name
    tok = load_tokenizer(folder)
    files = ["config.json", "tokenizer.json", "tokenizer_config.json"]
    embeddings = {}
    for dtype, rel in dtypes.items():
        # One batch, as the Node test embeds them: q8 quantises activations per batch.
        vectors = embed(make_session(folder / rel), tok, texts, batch_size=len(texts))
        # 9 significant digits round-trip a float32 exactly.
        embeddings[dtype] = [[float(f"{x:.9g}") for x in row] for row in vectors.tolist()]
        files.append(rel)
    data = {
        "model": model_name,
        "generatedBy": "scripts/models/" + os.path.basename(_caller_script()),
        "dim": len(embeddings[next(iter(dtypes))][0]),
        "tolerance": tolerance,
        "sha256": {rel: sha256(folder / rel) for rel in files},
        "texts": list(texts),
        "tokenIds": tok.token_ids(texts),
        "embeddings": embeddings,
        **(extra or {}),
    }
    path = FIXTURES_DIR / f"{model_name}.expected.json"
    write_json(path, data, indent=1)
    return path


def _caller_script() -> str:
    import __main__

    return getattr(__main__, "__file__", "python")


def file_size(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:.2f} MB"


GLOVE_TOKENIZER = MODELS_DIR / "aerie-glove-100d" / "tokenizer.json"
"""Word list of the random-weight models: the committed GloVe model's vocabulary, in frequency order."""


def frequent_words(tokenizer_json: Path = GLOVE_TOKENIZER) -> list[str]:
    """The non-special vocabulary of a WordPiece tokenizer.json, in id order (for aerie-glove-100d: English
    words from most to least frequent)."""
    with open(tokenizer_json, encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    words = sorted(vocab, key=vocab.get)
    return [w for w in words if w not in SPECIAL_TOKENS]


def wordpiece_vocabulary(words: Sequence[str], n_words: int, n_suffixes: int, size: int | None = None) -> list[str]:
    """A WordPiece vocabulary: special tokens, every printable ASCII character alone and as a '##' continuation
    (so no ASCII text maps to [UNK]), the `n_words` first `words`, and the `n_suffixes` commonest word endings
    (2-4 letters, counted over all `words`) as '##' pieces, so rarer words split into a stem and a suffix as in a
    learnt vocabulary. With `size`, more endings (then generated letter pairs) are added until exactly `size`."""
    chars = [chr(c) for c in range(33, 127)]
    vocab: list[str] = list(SPECIAL_TOKENS)
    seen = set(vocab)

    def add(token: str) -> None:
        if token not in seen and (size is None or len(vocab) < size):
            vocab.append(token)
            seen.add(token)

    for ch in chars:
        add(ch.lower())
    for ch in chars:
        add("##" + ch.lower())
    for word in words[:n_words]:
        add(word)
    counts: dict[str, int] = {}
    for word in words:
        if word.isalpha() and len(word) > 4:
            for k in (2, 3, 4):
                counts[word[-k:]] = counts.get(word[-k:], 0) + 1
    endings = sorted(counts, key=lambda e: (-counts[e], e))
    for ending in endings[:n_suffixes]:
        add("##" + ending)
    if size is not None:
        for word in words[n_words:]:
            add(word)
        for ending in endings[n_suffixes:]:
            add("##" + ending)
        letters = "abcdefghijklmnopqrstuvwxyz"
        for a in letters:
            for b in letters:
                add("##" + a + b)
        if len(vocab) != size:
            raise ValueError(f"could only make {len(vocab)} tokens, not {size}")
    return vocab
