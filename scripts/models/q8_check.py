"""How close a q8 model's outputs must be to its fixture on any CPU, and proof that the check still catches a
wrong model.

Why the committed test models use unsigned 8-bit weights (u8/u8). ONNX Runtime's native int8 matrix product
(MLAS) picks a kernel by CPU: with signed weights (u8s8), AVX2 and AVX-512 without VNNI multiply with
`vpmaddubsw`, which sums pairs of u8×s8 products into a saturating int16; VNNI (`vpdpbusd`) and WebAssembly
(i32x4.dot_i16x8_s over widened values) sum them exactly. A fixture made on one kind of CPU then disagrees with
the other (measured: the tiny decoder's logits by 0.198, the tiny BERT's embeddings by 1.3e-4, the cross-encoder's
logits by 0.0048, all on an AVX2-only CPU). Unsigned weights take a kernel without that saturation on every
x86-64 CPU (AVX2 widens to 16 bits and multiplies with `vpmaddwd`; VNNI and AMX sum exactly), and arm64 and
WebAssembly were exact already: the integer part of every product is the same everywhere.

What can still differ between CPUs is the float arithmetic around the integer products (a LayerNorm's or a
softmax's sum in another order, a last bit of an activation), and through dynamic quantisation a last-bit
difference can round an activation to the neighbouring 8-bit step. `step_effects` measures what one such step
does to the checked outputs: it moves one quantised activation of one DynamicQuantizeLinear by one step, at a
random place, many times, and records the largest change of the outputs. The tolerance allows two such steps
(`STEPS_ALLOWED`; one where two would reach the fp32 outputs), never less than the fp32 check's (float noise), and
must stay below the distance between the
q8 and the fp32 outputs, so that loading the fp32 file instead of the q8 one fails the check. `broken_region`
names the bytes of the last quantised weight matrix: the Node tests reverse them (the same distribution of weights,
wrong places) and check that the result fails by far.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

STEPS_ALLOWED = 2
"""Activations that may round to the neighbouring step on another CPU before the check fails (fewer where the
fp32 outputs are nearer than that: `q8_check`)."""
STEP_TRIALS = 48
"""Single-step changes tried per model (each a fresh session of the tiny model: fractions of a second)."""
STEP_SEED = 20261128
BROKEN_MARGIN = 3
"""A broken graph must miss the fixture by at least this many tolerances (the fixture records by how many)."""


@dataclass
class Probe:
    """One run of the model on the fixture's inputs, and the outputs the Node test compares."""

    feeds: dict[str, np.ndarray]
    pick: Callable[[list[np.ndarray]], np.ndarray]
    """The checked values from the session's outputs (in the graph's output order)."""


def _session(model_bytes: bytes, extra_outputs: Sequence[str] = ()):
    import onnx
    import onnxruntime as ort

    if extra_outputs:
        model = onnx.load_from_string(model_bytes)
        for name in extra_outputs:
            model.graph.output.append(onnx.helper.make_empty_tensor_value_info(name))
        model_bytes = model.SerializeToString()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model_bytes, sess_options=opts, providers=["CPUExecutionProvider"])


def run_probes(model_bytes: bytes, probes: Sequence[Probe]) -> list[np.ndarray]:
    """Each probe's checked values, from one session of the model."""
    sess = _session(model_bytes)
    names = [o.name for o in sess.get_outputs()]
    inputs = {i.name for i in sess.get_inputs()}
    return [p.pick(sess.run(names, {k: v for k, v in p.feeds.items() if k in inputs})) for p in probes]


def _with_step(model_bytes: bytes, quantised: str, shape: tuple[int, ...], index: int, sign: int) -> bytes:
    """The model with one element of the DynamicQuantizeLinear output `quantised` moved by one step."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load_from_string(model_bytes)
    graph = model.graph
    producer = next(n for n in graph.node if n.op_type == "DynamicQuantizeLinear" and n.output[0] == quantised)
    step = np.zeros(int(np.prod(shape)), np.int32)
    step[index] = sign
    moved = quantised + "_moved"
    graph.initializer.extend(
        [
            numpy_helper.from_array(step.reshape(shape), quantised + "_step"),
            numpy_helper.from_array(np.array(0, np.int32), quantised + "_lo"),
            numpy_helper.from_array(np.array(255, np.int32), quantised + "_hi"),
        ]
    )
    for node in graph.node:
        if node is not producer:
            for i, name in enumerate(node.input):
                if name == quantised:
                    node.input[i] = moved
    added = [
        helper.make_node("Cast", [quantised], [quantised + "_i32"], to=TensorProto.INT32),
        helper.make_node("Add", [quantised + "_i32", quantised + "_step"], [quantised + "_sum"]),
        helper.make_node("Clip", [quantised + "_sum", quantised + "_lo", quantised + "_hi"], [quantised + "_clip"]),
        helper.make_node("Cast", [quantised + "_clip"], [moved], to=TensorProto.UINT8),
    ]
    at = list(graph.node).index(producer) + 1
    for offset, node in enumerate(added):
        graph.node.insert(at + offset, node)
    return model.SerializeToString()


def step_effects(model_bytes: bytes, probes: Sequence[Probe], trials: int = STEP_TRIALS) -> list[float]:
    """The largest change of the checked values when one quantised activation moves by one step, per trial."""
    import onnx

    quantised = [n.output[0] for n in onnx.load_from_string(model_bytes).graph.node if n.op_type == "DynamicQuantizeLinear"]
    if not quantised:
        raise ValueError("the model has no DynamicQuantizeLinear: it is not a dynamic q8 model")
    base = run_probes(model_bytes, probes)
    # The shape of every quantised activation in every probe's run.
    sess = _session(model_bytes, quantised)
    names = [o.name for o in sess.get_outputs()]
    inputs = {i.name for i in sess.get_inputs()}
    shapes = []
    for p in probes:
        out = sess.run(names, {k: v for k, v in p.feeds.items() if k in inputs})
        shapes.append({q: out[names.index(q)].shape for q in quantised})
    rng = np.random.default_rng(STEP_SEED)
    effects = []
    for _ in range(trials):
        r = int(rng.integers(len(probes)))
        q = quantised[int(rng.integers(len(quantised)))]
        shape = shapes[r][q]
        moved = _with_step(model_bytes, q, shape, int(rng.integers(int(np.prod(shape)))), int(rng.choice([-1, 1])))
        effects.append(float(np.max(np.abs(run_probes(moved, [probes[r]])[0] - base[r]))))
    return effects


def broken_region(model_bytes: bytes) -> dict:
    """Where the last quantised weight matrix's bytes lie in the file (offset, length, tensor name): the one
    nearest the outputs, whose error no later layer dilutes."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load_from_string(model_bytes)
    inits = {t.name: t for t in model.graph.initializer}
    for node in reversed(model.graph.node):
        if node.op_type == "MatMulInteger" and node.input[1] in inits:
            tensor = inits[node.input[1]]
            raw = numpy_helper.to_array(tensor).tobytes()
            offset = model_bytes.find(raw)
            if offset < 0 or model_bytes.find(raw, offset + 1) >= 0:
                raise AssertionError(f"{tensor.name}'s bytes are not found once in the file")
            return {"tensor": tensor.name, "offset": offset, "length": len(raw)}
    raise ValueError("no quantised weight matrix")


def break_graph(model_bytes: bytes, region: dict) -> bytes:
    """The model with the region's bytes reversed (what the Node tests do)."""
    start, end = region["offset"], region["offset"] + region["length"]
    return model_bytes[:start] + model_bytes[start:end][::-1] + model_bytes[end:]


def q8_check(q8_path: Path, fp32_values: Sequence[np.ndarray], probes: Sequence[Probe], floor: float) -> dict:
    """The q8 tolerance and the evidence for it (see the module docstring); raises when the check could not tell
    the q8 model from the fp32 one or from a broken graph."""
    model_bytes = Path(q8_path).read_bytes()
    q8_values = run_probes(model_bytes, probes)
    effects = step_effects(model_bytes, probes)
    step = max(effects)
    fp32_difference = max(float(np.max(np.abs(a - b))) for a, b in zip(q8_values, fp32_values))
    # Two steps where the fp32 outputs are further away than that; one where they are not (a model whose checked
    # output sits on one position, as a cross-encoder's [CLS] logit, has a quantisation error of few steps).
    steps = STEPS_ALLOWED
    while steps > 1 and not float(f"{max(floor, steps * step):.2g}") < fp32_difference:
        steps -= 1
    tolerance = float(f"{max(floor, steps * step):.2g}")
    if not tolerance < fp32_difference:
        raise AssertionError(f"q8 tolerance {tolerance} would accept the fp32 model (|q8 - fp32| {fp32_difference})")
    region = broken_region(model_bytes)
    broken = run_probes(break_graph(model_bytes, region), probes)
    broken_difference = max(float(np.max(np.abs(a - b))) for a, b in zip(broken, q8_values))
    if not broken_difference > BROKEN_MARGIN * tolerance:
        raise AssertionError(f"a broken graph misses by {broken_difference}, under {BROKEN_MARGIN} x {tolerance}")
    print(
        f"  q8 check: one activation step moves the outputs by up to {step:.3g} ({len(effects)} trials); "
        f"tolerance {tolerance:.3g}; fp32 misses by {fp32_difference:.3g}, a broken graph by {broken_difference:.3g}"
    )
    return {
        "weights": "u8/u8 (QUInt8 weights, QUInt8 activations): exact integer products on every CPU",
        "stepEffect": float(f"{step:.3g}"),
        "stepTrials": len(effects),
        "stepsAllowed": steps,
        "tolerance": tolerance,
        "fp32Difference": float(f"{fp32_difference:.3g}"),
        "broken": {**region, "file": str(Path(q8_path).relative_to(Path(q8_path).parents[1]).as_posix()), "difference": float(f"{broken_difference:.3g}")},
    }
