"""The static arena plan (tflite_fast extension: Interpreter.arena_bytes, memory_plan()).

For every shared model that allocates: tensors whose lifetimes [first_step, last_step]
intersect never share bytes, offsets are 64-byte aligned, every planned region holds its
tensor, the arena covers every region, and the arena is within 10% of the lower bound
max over steps of (sum of the sizes of the tensors live at that step).
"""

import numpy as np
import pytest

import oracle
from oracle import shared_models
from model_builder import S
from test_models import probe

tfl = oracle.ours_module()
pytestmark = pytest.mark.skipif(tfl is oracle.oracle_module(),
                                reason="tflite_fast extension, not in LiteRT")

ALIGN = 64
MAX_RATIO = 1.10


def lower_bound(plan):
    """max over steps of the summed sizes of the tensors live at that step."""
    if not plan:
        return 0
    last = max(e["last_step"] for e in plan)
    live = np.zeros(last + 2, np.int64)
    for e in plan:  # difference array over steps
        live[e["first_step"]] += e["size"]
        live[e["last_step"] + 1] -= e["size"]
    return int(np.cumsum(live).max())


def constant_tensors(model_bytes):
    """Indices of subgraph-0 tensors whose buffer holds data (weights: never planned)."""
    m = S.Model.GetRootAs(model_bytes, 0)
    sg = m.Subgraphs(0)
    out = set()
    for i in range(sg.TensorsLength()):
        b = sg.Tensors(i).Buffer()
        if 0 < b < m.BuffersLength():
            buf = m.Buffers(b)
            if buf.DataLength() > 0 or buf.Offset() > 1:
                out.add(i)
    return out


def assert_lifetimes_cover_uses(plan, ops, consts, graph_inputs, graph_outputs):
    """Every planned tensor's lifetime covers every step that reads or writes it (steps =
    node order); graph inputs are live from step 0 and graph outputs until the last step
    (the caller reads them). Tensors an op uses may be missing from the plan: those that
    prepare computes once and keeps outside the arena (DEQUANTIZE of constant fp16
    weights, SHAPE of a static shape), as TFLite does with persistent tensors."""
    by_tensor = {e["tensor"]: e for e in plan}
    last_step = len(ops) - 1
    uses = {}
    for step, op in enumerate(ops):
        for t in list(op["inputs"]) + list(op["outputs"]):
            if t >= 0 and t not in consts:
                uses.setdefault(int(t), []).append(step)
    for t in graph_inputs:
        uses.setdefault(t, []).append(0)
    for t in graph_outputs:
        uses.setdefault(t, []).append(last_step)
    for t, steps in uses.items():
        e = by_tensor.get(t)
        if e is None:
            continue
        assert e["first_step"] <= min(steps) and e["last_step"] >= max(steps), (
            f"tensor {t} used at steps {min(steps)}..{max(steps)} but planned for {e}")


def assert_no_overlap(plan):
    """Sweep by offset: two regions overlapping in bytes must not overlap in time."""
    order = sorted(plan, key=lambda e: e["offset"])
    active = []  # regions whose byte range may still reach the current offset
    for e in order:
        active = [a for a in active if a["offset"] + a["size"] > e["offset"]]
        for a in active:
            if a["first_step"] <= e["last_step"] and e["first_step"] <= a["last_step"]:
                raise AssertionError(f"tensors {a.get('tensor')} and {e.get('tensor')} overlap: "
                                     f"{a} vs {e}")
        active.append(e)


@pytest.mark.parametrize("name", shared_models())
def test_plan(name, record_property):
    status = probe(name, "default")  # a crash in tflite_fast fails here, in a child process
    if status != "ok" and status[2] == "construct":
        pytest.xfail(f"{name} does not construct: {status[1][:200]}")
    data = oracle.model_bytes(name)
    it = oracle.make_interpreter(tfl, data, "default")
    try:
        it.allocate_tensors()
    except RuntimeError as e:
        pytest.xfail(f"{name} does not allocate yet: {str(e)[:200]}")
    arena = it.arena_bytes
    plan = it.memory_plan()
    assert type(arena) is int and arena > 0
    assert plan, "empty memory plan"
    tensor_bytes = {d["index"]: int(np.prod(d["shape"], dtype=np.int64)) * np.dtype(d["dtype"]).itemsize
                    for d in it.get_tensor_details()
                    if np.dtype(d["dtype"]).kind in "biufc"}
    for e in plan:
        assert e["offset"] % ALIGN == 0, f"unaligned: {e}"
        assert e["size"] > 0 and e["first_step"] <= e["last_step"], e
        if e.get("tensor") in tensor_bytes:
            assert e["size"] >= tensor_bytes[e["tensor"]], f"region smaller than tensor: {e}"
    assert_lifetimes_cover_uses(plan, it._get_ops_details(), constant_tensors(data),
                                [d["index"] for d in it.get_input_details()],
                                [d["index"] for d in it.get_output_details()])
    assert_no_overlap(plan)
    end = max(e["offset"] + e["size"] for e in plan)
    assert arena >= end, f"arena {arena} < end of last region {end}"
    lb = lower_bound(plan)
    ratio = arena / lb
    msg = f"{name}: arena {arena} B, lower bound {lb} B, ratio {ratio:.3f}, {len(plan)} tensors"
    print(msg)
    record_property("arena_bytes", arena)
    record_property("lower_bound", lb)
    record_property("ratio", round(ratio, 4))
    assert ratio <= MAX_RATIO, msg


def test_checks_catch_bad_plans():
    """The checkers themselves: an overlapping plan is rejected, the bound is right."""
    a = {"tensor": 1, "offset": 0, "size": 128, "first_step": 0, "last_step": 2}
    b = {"tensor": 2, "offset": 64, "size": 64, "first_step": 2, "last_step": 3}
    c = {"tensor": 3, "offset": 0, "size": 64, "first_step": 3, "last_step": 4}
    with pytest.raises(AssertionError):
        assert_no_overlap([a, b])
    assert_no_overlap([a, c])
    assert lower_bound([a, b, c]) == 192
    ops = [{"inputs": [5], "outputs": [1]}, {"inputs": [1], "outputs": [2]},
           {"inputs": [1, 2], "outputs": [3]}, {"inputs": [3], "outputs": [4]}]
    plan = [dict(a, tensor=1, last_step=1), dict(b, tensor=2), dict(c, tensor=3)]
    with pytest.raises(AssertionError, match="tensor 1 used at steps 0..2"):
        assert_lifetimes_cover_uses(plan, ops, consts={5}, graph_inputs=[], graph_outputs=[])
