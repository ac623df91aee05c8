"""Views (csrc/runtime/alias.h): a CONCATENATION input that is a contiguous piece of the
output is written in place by its producer, and a STRIDED_SLICE of one contiguous run is
read where it lies in its input; such a tensor has no arena region of its own.

Every model runs against ai_edge_litert in both numerics modes; on tflite_fast the memory
plan also shows which tensors became views. Cases: concatenations with only 1s before the
axis (views) and with an outer dim > 1 (copies), slices of one run (views) and strided or
multi-row ones (copies), a concatenation input read again after the concatenation, the same
tensor twice, graph inputs and outputs (never views), chains (a slice of a concatenation
feeding another concatenation), a streaming state chain carried over invokes (READ_VARIABLE
-> CONCATENATION -> STRIDED_SLICE -> ASSIGN_VARIABLE, as okay_nabu does),
preserve_all_tensors (no views: every intermediate readable and equal to the oracle's) and
a resize after the first allocate.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from conftest import model_path
from model_builder import ModelBuilder
from test_control_flow import run_sequence, assert_sequences_match, with_outputs, values

ours = oracle.ours_module()
IS_LITERT = ours is oracle.oracle_module()
F32 = np.float32
Q = {"scale": 0.05, "zero_point": 3}  # one quantization for every int8 tensor here


def tensor(b, name, shape, dtype):
    return b.tensor(name, list(shape), dtype, **(Q if dtype == np.int8 else {}))


def add(b, name, x, y, shape, dtype):
    """A new tensor x + y (its producer writes it: in place when it is a view)."""
    t = tensor(b, name, shape, dtype)
    b.op("ADD", [x, y], [t])
    return t


def strided_slice(b, name, x, begin, end, strides, shape, dtype):
    """x[begin:end:strides], the last dim whole (end mask: it may be resized)."""
    t = tensor(b, name, shape, dtype)
    i32 = np.int32
    b.op("STRIDED_SLICE", [x, b.const(name + "_b", np.array(begin, i32)),
                           b.const(name + "_e", np.array(end, i32)),
                           b.const(name + "_s", np.array(strides, i32))], [t],
         endMask=1 << (len(begin) - 1))
    return t


def rand(shape, dtype, rng):
    if dtype == np.int8:
        return rng.integers(-128, 127, size=shape, endpoint=True, dtype=np.int8)
    return rng.standard_normal(shape).astype(dtype)


def planned(model, mode, **kwargs):
    """Tensors with an arena region of their own in tflite_fast's plan."""
    it = oracle.make_interpreter(ours, model, mode, **kwargs)
    it.allocate_tensors()
    return {e["tensor"] for e in it.memory_plan()}


def check_views(model, mode, views, copies):
    if IS_LITERT:
        return
    plan = planned(model, mode)
    assert not set(views) & plan, f"views {sorted(set(views) & plan)} have regions"
    assert set(copies) <= plan, f"copies {sorted(set(copies) - plan)} have no region"


def concat_slice_model(dtype, lead, rows, c, axis_rows, begin, end, stride=1, reread=False,
                       twice=False):
    """x_i (inputs) -> u_i = x_i + x_i -> concat along the rows -> o -> slice rows
    [begin, end) by stride -> s -> y = s + s (and, with reread, z = u_0 + u_0 after the
    concatenation). The shape is lead + [rows_i] + [c] with axis_rows the rows' axis
    position (lead dims before it). Returns (model, inputs, u, o, s)."""
    b = ModelBuilder()
    shapes = [list(lead) + [r, c] for r in rows]
    xs = [tensor(b, f"x{i}", s, dtype) for i, s in enumerate(shapes)]
    us = [add(b, f"u{i}", x, x, s, dtype) for i, (x, s) in enumerate(zip(xs, shapes))]
    cat_in = us + [us[0]] if twice else us
    total = sum(shapes[i][axis_rows] for i in range(len(rows))) + (rows[0] if twice else 0)
    oshape = list(lead) + [total, c]
    o = tensor(b, "o", oshape, dtype)
    b.op("CONCATENATION", cat_in, [o], axis=axis_rows)
    n = len(range(begin, end, stride))
    sshape = list(lead) + [n, c]
    rank = len(oshape)
    s = strided_slice(b, "s", o, [0] * (rank - 2) + [begin, 0],
                      list(lead) + [end, c], [1] * (rank - 2) + [stride, 1], sshape, dtype)
    y = add(b, "y", s, s, sshape, dtype)
    outs = [y]
    if reread:
        outs.append(add(b, "z", us[0], us[0], shapes[0], dtype))
    b.inputs(xs)
    b.outputs(outs)
    return b.build(), shapes, us, o, s


@pytest.mark.parametrize("mode", oracle.MODES)
@settings(max_examples=20, deadline=None)
@given(dtype=st.sampled_from([np.int8, F32]), lead=st.sampled_from([(), (1,), (1, 1)]),
       rows=st.lists(st.integers(1, 5), min_size=1, max_size=4), c=st.integers(1, 37),
       cut=st.data(), reread=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_concat_and_slice_views(mode, dtype, lead, rows, c, cut, reread, seed):
    """Only 1s before the concatenation axis: every input is a view of the output; a slice
    of whole rows of it is a view too (its input is one run)."""
    total = sum(rows)
    begin = cut.draw(st.integers(0, total - 1))
    end = cut.draw(st.integers(begin + 1, total))
    model, shapes, us, o, s = concat_slice_model(dtype, lead, rows, c, len(lead), begin, end,
                                                 reread=reread)
    rng = np.random.default_rng(seed)
    oracle.check(model, [rand(sh, dtype, rng) for sh in shapes], mode)
    check_views(model, mode, us + [s], [o])


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, F32])
def test_outer_dim_copies(mode, dtype):
    """A dim > 1 before the axis: the inputs are strided pieces of the output (copies);
    a slice of rows of each outer index is not one run (a copy)."""
    model, shapes, us, o, s = concat_slice_model(dtype, (2,), [2, 3], 5, 1, 1, 4)
    rng = np.random.default_rng(1)
    oracle.check(model, [rand(sh, dtype, rng) for sh in shapes], mode)
    check_views(model, mode, [], us + [o, s])


@pytest.mark.parametrize("mode", oracle.MODES)
def test_strided_slice_copies(mode):
    """A stride of 2 reads every other row: not one run, a copy; the inputs stay views."""
    model, shapes, us, o, s = concat_slice_model(np.int8, (1,), [3, 4], 6, 1, 0, 7, stride=2)
    rng = np.random.default_rng(2)
    oracle.check(model, [rand(sh, np.int8, rng) for sh in shapes], mode)
    check_views(model, mode, us, [o, s])


@pytest.mark.parametrize("mode", oracle.MODES)
def test_same_input_twice(mode):
    """concat(u0, u1, u0): u0 is a view at its first place and copied to the third."""
    model, shapes, us, o, s = concat_slice_model(F32, (1,), [2, 3], 4, 1, 1, 7, twice=True,
                                                 reread=True)
    rng = np.random.default_rng(3)
    oracle.check(model, [rand(sh, F32, rng) for sh in shapes], mode)
    check_views(model, mode, us + [s], [o])


def io_model(dtype):
    """x0 (graph input) and u1 = x1 + x1 (also a graph output) concatenated into o; the
    slice s of o is a graph output. None of them may be a view."""
    b = ModelBuilder()
    x0, x1 = tensor(b, "x0", [1, 2, 3], dtype), tensor(b, "x1", [1, 2, 3], dtype)
    u1 = add(b, "u1", x1, x1, [1, 2, 3], dtype)
    o = tensor(b, "o", [1, 4, 3], dtype)
    b.op("CONCATENATION", [x0, u1], [o], axis=1)
    s = strided_slice(b, "s", o, [0, 1, 0], [1, 3, 3], [1, 1, 1], [1, 2, 3], dtype)
    y = add(b, "y", o, o, [1, 4, 3], dtype)
    b.inputs([x0, x1])
    b.outputs([y, u1, s])
    return b.build(), [x0, u1, s], o


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, F32])
def test_graph_inputs_and_outputs_are_not_views(mode, dtype):
    model, copies, o = io_model(dtype)
    rng = np.random.default_rng(4)
    oracle.check(model, [rand([1, 2, 3], dtype, rng) for _ in range(2)], mode)
    check_views(model, mode, [], copies[1:] + [o])


def chain_model():
    """u0, u1 -> concat o1 -> slice s (rows 1..4, a view of o1) -> concat with u2 -> o2
    -> slice t (a view of o2, so of o1 through s) -> y = t + t."""
    b = ModelBuilder()
    xs = [tensor(b, f"x{i}", [1, 2, 8], F32) for i in range(3)]
    us = [add(b, f"u{i}", x, x, [1, 2, 8], F32) for i, x in enumerate(xs)]
    o1 = tensor(b, "o1", [1, 4, 8], F32)
    b.op("CONCATENATION", us[:2], [o1], axis=1)
    s = strided_slice(b, "s", o1, [0, 1, 0], [1, 4, 8], [1, 1, 1], [1, 3, 8], F32)
    o2 = tensor(b, "o2", [1, 5, 8], F32)
    b.op("CONCATENATION", [s, us[2]], [o2], axis=1)
    t = strided_slice(b, "t", o2, [0, 2, 0], [1, 5, 8], [1, 1, 1], [1, 3, 8], F32)
    y = add(b, "y", t, t, [1, 3, 8], F32)
    b.inputs(xs)
    b.outputs([y])
    return b.build(), us, s, o1, o2, t


@pytest.mark.parametrize("mode", oracle.MODES)
def test_view_chain(mode):
    """s is a slice view of o1 and offered as a piece of o2: the first offer counts (s
    stays in o1), so o2 gets its own region and the concatenation copies s."""
    model, us, s, o1, o2, t = chain_model()
    rng = np.random.default_rng(5)
    oracle.check(model, [rand([1, 2, 8], F32, rng) for _ in range(3)], mode)
    check_views(model, mode, us + [s, t], [o1, o2])


def stream_model(dtype, rows=4, c=24):
    """A streaming state of `rows` rows carried over invokes like okay_nabu's: state =
    READ_VARIABLE; o = concat(state, x + x); ASSIGN_VARIABLE(o[1:]); y = o + o."""
    b = ModelBuilder()
    x = tensor(b, "x", [1, 1, c], dtype)
    b.op("CALL_ONCE", [], [], initSubgraphIndex=1)
    h = b.tensor("h", [], "RESOURCE")
    b.op("VAR_HANDLE", [], [h], container="", sharedName="state")
    v = tensor(b, "v", [1, rows, c], dtype)
    b.op("READ_VARIABLE", [h], [v])
    u = add(b, "u", x, x, [1, 1, c], dtype)
    o = tensor(b, "o", [1, rows + 1, c], dtype)
    b.op("CONCATENATION", [v, u], [o], axis=1)
    s = strided_slice(b, "s", o, [0, 1, 0], [1, rows + 1, c], [1, 1, 1], [1, rows, c], dtype)
    b.op("ASSIGN_VARIABLE", [h, s], [])
    y = add(b, "y", o, o, [1, rows + 1, c], dtype)
    b.inputs([x])
    b.outputs([y])
    b.new_subgraph("init")
    h = b.tensor("h", [], "RESOURCE")
    init = np.zeros([1, rows, c], dtype)
    b.op("VAR_HANDLE", [], [h], container="", sharedName="state")
    b.op("ASSIGN_VARIABLE", [h, b.const("init", init, **(Q if dtype == np.int8 else {}))], [])
    return b.build(), [v, u, s], o


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("dtype", [np.int8, F32])
def test_streaming_state(mode, dtype):
    """The state moves one row per invoke; every invoke matches the oracle's."""
    model, views, o = stream_model(dtype)
    xs = [[values([1, 1, 24], dtype, k)] for k in range(8)]
    got = run_sequence(ours, model, mode, xs)
    assert_sequences_match(got, run_sequence(oracle.oracle_module(), model, mode, xs),
                           f"stream mode={mode}")
    check_views(model, mode, views + [o], [])  # o is a streaming window's (test_windows.py)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_okay_nabu_streaming_with_views(mode):
    """okay_nabu with only its logit (102) added to the outputs, so every state chain keeps
    its views (test_control_flow's streaming test also returns the state tensors, which
    makes them graph outputs); each of 16 invokes matches the oracle's."""
    model = with_outputs(model_path("okay_nabu").read_bytes(), [102])
    rng = np.random.default_rng(11)
    xs = [[rng.integers(-128, 127, size=(1, 3, 40), endpoint=True, dtype=np.int8)]
          for _ in range(16)]
    got = run_sequence(ours, model, mode, xs)
    assert_sequences_match(got, run_sequence(oracle.oracle_module(), model, mode, xs),
                           f"okay_nabu mode={mode}")
    assert len({g[1].tobytes() for g in got}) > 8  # the logit follows the state
    # READ_VARIABLE outputs 57, 61 and the new rows 54, 60 are pieces of their
    # concatenations; the slices 59, 63 read them in place; the concatenations 58, 62
    # are streaming windows (test_windows.py). SPLIT_V's outputs 69, 70 feed depthwise
    # column kernels (through slices): strided views in default mode, else copies
    # (test_strided_views.py).
    split = [69, 70]
    check_views(model, mode, [57, 54, 61, 60, 59, 63, 58, 62] + (split if mode == "default" else []),
                [] if mode == "default" else split)


@pytest.mark.filterwarnings("ignore:Warning. Enabling `experimental_preserve_all_tensors`")
@pytest.mark.parametrize("mode", oracle.MODES)
def test_preserve_all_tensors(mode):
    """Every intermediate observable: no views, and each equals the oracle's."""
    model, shapes, us, o, s = concat_slice_model(np.int8, (1,), [2, 3], 5, 1, 1, 4)
    rng = np.random.default_rng(6)
    inputs = [rand(sh, np.int8, rng) for sh in shapes]
    got = {}
    for module in (ours, oracle.oracle_module()):
        it = oracle.make_interpreter(module, model, mode, experimental_preserve_all_tensors=True)
        oracle.run_interpreter(it, inputs)
        got[module] = [it.get_tensor(t) for t in us + [o, s]]
    oracle.assert_outputs_match(got[ours], got[oracle.oracle_module()], f"mode={mode}")
    if not IS_LITERT:
        plan = planned(model, mode, experimental_preserve_all_tensors=True)
        assert set(us + [o, s]) <= plan


@pytest.mark.parametrize("mode", oracle.MODES)
def test_resize_after_allocate(mode):
    """A second allocate (new input shapes) places the views again on the new shapes."""
    model, shapes, us, o, s = concat_slice_model(F32, (1,), [2, 3], 4, 1, 1, 4)
    rng = np.random.default_rng(8)
    it = oracle.make_interpreter(ours, model, mode)
    for c in (4, 9, 4):
        new = [[1, 2, c], [1, 3, c]]
        for k, sh in enumerate(new):
            it.resize_tensor_input(it.get_input_details()[k]["index"], sh)
        it.allocate_tensors()
        xs = [rand(sh, F32, rng) for sh in new]
        for k, x in enumerate(xs):
            it.set_tensor(it.get_input_details()[k]["index"], x)
        it.invoke()
        y = it.get_tensor(it.get_output_details()[0]["index"])
        cat = np.concatenate([x + x for x in xs], axis=1)[:, 1:4]
        np.testing.assert_allclose(y, cat + cat, rtol=1e-6)
        if not IS_LITERT:
            assert not set(us + [s]) & {e["tensor"] for e in it.memory_plan()}
