"""Streaming state windows (csrc/runtime/window.h): a variable carried over invokes as
READ_VARIABLE -> CONCATENATION(state, new rows) -> STRIDED_SLICE(drop the new rows' count
of leading rows) -> ASSIGN_VARIABLE lives in its concatenation's own buffer; READ and
ASSIGN leave the plan loop. On tflite_fast a window shows as a concatenation output with
no arena region (memory_plan()); every case also runs on ai_edge_litert over several
invokes in both numerics modes, state carried over.

Windows: states of any row count and width, new rows produced before or after the READ,
a second READ of the variable after the ASSIGN (it sees the window's bytes). No window:
a second READ between the READ and the ASSIGN, the concatenation order reversed, a slice
that keeps the leading rows. Also reset_all_variables between invokes, a resize and
re-allocate in the middle of a sequence (the state carries over), the timed plan loop
(profiling) switched on and off in the middle, and okay_nabu on two threads.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import oracle
from conftest import model_path
from model_builder import ModelBuilder
from test_control_flow import run_sequence, assert_sequences_match, values, with_outputs

ours = oracle.ours_module()
IS_LITERT = ours is oracle.oracle_module()
Q = {"scale": 0.05, "zero_point": 3}
I32 = np.int32


def tensor(b, name, shape, dtype):
    return b.tensor(name, list(shape), dtype, **(Q if dtype == np.int8 else {}))


def twice(b, name, x, shape, dtype):
    t = tensor(b, name, shape, dtype)
    b.op("ADD", [x, x], [t])
    return t


def stream_model(dtype, rows=4, c=24, fresh=1, x_first=False, order="vx", cut=None,
                 reread=None, side=False):
    """h: a state of `rows` rows of c values, initially random (init subgraph).
    v = READ_VARIABLE(h); u = x + x (fresh rows); o = concat(v, u) (order "xv": (u, v));
    s = o[cut:cut + rows] (cut defaults to fresh); ASSIGN_VARIABLE(h, s); y = o + o.
    x_first: u is computed before the READ. reread "between"/"after": another READ of h
    before/after the ASSIGN, an output (doubled by an ADD, XNNPACK fails to prepare). side: an input z and its double, an
    output (a resizable input that leaves the state alone). Returns (model, o)."""
    cut = fresh if cut is None else cut
    b = ModelBuilder()
    x = tensor(b, "x", [1, fresh, c], dtype)
    z = tensor(b, "z", [1, 2], dtype) if side else None
    b.op("CALL_ONCE", [], [], initSubgraphIndex=1)
    h = b.tensor("h", [], "RESOURCE")
    b.op("VAR_HANDLE", [], [h], container="", sharedName="state")
    u = twice(b, "u", x, [1, fresh, c], dtype) if x_first else None
    v = tensor(b, "v", [1, rows, c], dtype)
    b.op("READ_VARIABLE", [h], [v])
    if u is None:
        u = twice(b, "u", x, [1, fresh, c], dtype)
    outs = []

    def read_again(name):
        r = tensor(b, name, [1, rows, c], dtype)
        b.op("READ_VARIABLE", [h], [r])
        outs.append(r)

    o = tensor(b, "o", [1, rows + fresh, c], dtype)
    b.op("CONCATENATION", [v, u] if order == "vx" else [u, v], [o], axis=1)
    s = tensor(b, "s", [1, rows, c], dtype)
    b.op("STRIDED_SLICE", [o, b.const("sb", np.array([0, cut, 0], I32)),
                           b.const("se", np.array([1, cut + rows, c], I32)),
                           b.const("ss", np.array([1, 1, 1], I32))], [s])
    if reread == "between":
        read_again("r")
    b.op("ASSIGN_VARIABLE", [h, s], [])
    if reread == "after":
        read_again("r")
    outs.insert(0, twice(b, "y", o, [1, rows + fresh, c], dtype))
    if side:
        outs.append(twice(b, "z2", z, [1, 2], dtype))
    b.inputs([x] + ([z] if side else []))
    b.outputs(outs)
    b.new_subgraph("init")
    h = b.tensor("h", [], "RESOURCE")
    b.op("VAR_HANDLE", [], [h], container="", sharedName="state")
    init = values([1, rows, c], dtype, 99)
    b.op("ASSIGN_VARIABLE", [h, b.const("init", init, **(Q if dtype == np.int8 else {}))], [])
    return b.build(), o


def inputs(dtype, fresh, c, n, seed, side=False):
    return [[values([1, fresh, c], dtype, seed + k)] + ([values([1, 2], dtype, k)] if side else [])
            for k in range(n)]


def windowed(model, mode, o):
    """Whether tflite_fast gave o a window (no arena region)."""
    it = oracle.make_interpreter(ours, model, mode)
    it.allocate_tensors()
    return o not in {e["tensor"] for e in it.memory_plan()}


def check_stream(model, mode, xs, o, window):
    got = run_sequence(ours, model, mode, xs)
    assert_sequences_match(got, run_sequence(oracle.oracle_module(), model, mode, xs),
                           f"mode={mode}")
    if not IS_LITERT:
        assert windowed(model, mode, o) == window


@settings(max_examples=12, deadline=None)
@given(dtype=st.sampled_from([np.int8, np.float32]), rows=st.integers(1, 6),
       c=st.sampled_from([1, 3, 24, 64]), fresh=st.integers(1, 3), x_first=st.booleans(),
       seed=st.integers(0, 1000))
@pytest.mark.parametrize("mode", oracle.MODES)
def test_window(mode, dtype, rows, c, fresh, x_first, seed):
    model, o = stream_model(dtype, rows, c, fresh, x_first)
    check_stream(model, mode, inputs(dtype, fresh, c, 6, seed), o, True)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_read_after_assign(mode):
    """A READ of the variable after the ASSIGN reads the window's new state."""
    model, o = stream_model(np.int8, rows=3, c=16, fresh=2, reread="after")
    check_stream(model, mode, inputs(np.int8, 2, 16, 6, 1), o, True)


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("case", [{"reread": "between"}, {"order": "xv", "cut": 0},
                                  {"cut": 0}])
def test_no_window(mode, case):
    """The variable read again before its ASSIGN, the new rows first, a slice keeping
    the leading rows: plain ops (views only)."""
    model, o = stream_model(np.int8, rows=3, c=16, fresh=1, **case)
    check_stream(model, mode, inputs(np.int8, 1, 16, 6, 2), o, False)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_reset_all_variables(mode):
    """After reset_all_variables the init subgraph runs again: the next invokes match a
    fresh interpreter's (LiteRT keeps resource variables over its reset)."""
    model, o = stream_model(np.float32, rows=4, c=8, fresh=1)
    first, then = inputs(np.float32, 1, 8, 3, 3), inputs(np.float32, 1, 8, 4, 7)
    it = oracle.make_interpreter(ours, model, mode)
    before = run_sequence(ours, model, mode, first, interp=it)
    it.reset_all_variables()
    after = run_sequence(ours, model, mode, then, interp=it)
    ref = oracle.oracle_module()
    assert_sequences_match(before, run_sequence(ref, model, mode, first), "before reset")
    assert_sequences_match(after, run_sequence(ref, model, mode, then), "after reset")


@pytest.mark.parametrize("mode", oracle.MODES)
def test_resize_keeps_state(mode):
    """Resizing another input re-plans the subgraph (a new window); the state carries over."""
    model, o = stream_model(np.int8, rows=5, c=8, fresh=1, side=True)
    xs = inputs(np.int8, 1, 8, 6, 4, side=True)
    for k, n in ((2, 5), (3, 3), (4, 5)):  # run_interpreter resizes z when its shape differs
        xs[k][1] = values([1, n], np.int8, k)
    check_stream(model, mode, xs, o, True)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_profiling_in_between(mode):
    """Invokes 2-3 run the timed loop (plain READ/ASSIGN); the window takes the variable
    back after."""
    model, o = stream_model(np.int8, rows=4, c=8, fresh=2)
    xs = inputs(np.int8, 2, 8, 6, 5)
    it = oracle.make_interpreter(ours, model, mode)
    got = []
    for k, x in enumerate(xs):
        if not IS_LITERT:
            it._interpreter._set_profiling(k in (2, 3))
        got.append(oracle.run_interpreter(it, x))
    assert_sequences_match(got, run_sequence(oracle.oracle_module(), model, mode, xs), "profiling")


def test_okay_nabu_two_threads():
    """Windows are thread-count independent: 2 threads match the oracle's 1."""
    model = with_outputs(model_path("okay_nabu").read_bytes(), [102, 101, 87])
    rng = np.random.default_rng(12)
    xs = [[rng.integers(-128, 127, size=(1, 3, 40), endpoint=True, dtype=np.int8)]
          for _ in range(12)]
    it = ours.Interpreter(model_content=model, num_threads=2)
    got = run_sequence(ours, model, "default", xs, interp=it)
    assert_sequences_match(got, run_sequence(oracle.oracle_module(), model, "default", xs),
                           "okay_nabu 2 threads")
