"""get_tensor refills the array it returned last time when nothing else holds it
(src/_core.pyx, Interpreter._recent). These tests pin the contract that makes
that invisible: every result equals the oracle's output for its invoke, and an
array anyone can still reach (a variable, a view, a buffer export, a weak
reference) or that was changed in place (flags, shape, dtype) is never refilled.
The expected values come from ai_edge_litert, invoke by invoke."""

import gc
import weakref

import numpy as np
import pytest

import oracle
from model_builder import ModelBuilder

tfl = oracle.ours_module()
litert = oracle.oracle_module()


def two_output_model():
    """y = x + c (float32 [1, 4]) and z = x * c: two outputs, as many as tensors."""
    b = ModelBuilder()
    x = b.tensor("x", [1, 4], np.float32, shape_signature=[-1, 4])
    c = b.const("c", np.array([1.0, -2.0, 3.0, 0.5], np.float32))
    y = b.tensor("y", [1, 4], np.float32, shape_signature=[-1, 4])
    z = b.tensor("z", [1, 4], np.float32, shape_signature=[-1, 4])
    b.op("ADD", [x, c], [y])
    b.op("MUL", [x, c], [z])
    b.inputs([x])
    b.outputs([y, z])
    return b.build()


class Pair:
    """Ours and the oracle on one model; step(x) invokes both and returns the
    oracle's outputs (its own copies) for comparing with ours."""

    def __init__(self, model):
        self.ours = tfl.Interpreter(model_content=model, num_threads=1)
        self.ref = litert.Interpreter(model_content=model, num_threads=1)
        for it in (self.ours, self.ref):
            it.allocate_tensors()
        self.inp = self.ours.get_input_details()[0]["index"]
        self.outs = [d["index"] for d in self.ours.get_output_details()]

    def step(self, x):
        for it in (self.ours, self.ref):
            it.set_tensor(self.inp, x)
            it.invoke()
        return [self.ref.get_tensor(o) for o in self.outs]

    def resize(self, shape):
        for it in (self.ours, self.ref):
            it.resize_tensor_input(self.inp, shape)
            it.allocate_tensors()


def inputs(n, shape=(1, 4), seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(n)]


def test_dropped_results_match_every_invoke():
    p = Pair(two_output_model())
    for x in inputs(20):
        ref = p.step(x)
        for o, r in zip(p.outs, ref):
            np.testing.assert_array_equal(p.ours.get_tensor(o), r)  # dropped at once


def test_held_results_keep_their_values():
    p = Pair(two_output_model())
    held = []
    for x in inputs(6):
        ref = p.step(x)
        held.append(([p.ours.get_tensor(o) for o in p.outs], ref))
    for ours, ref in held:
        for a, r in zip(ours, ref):
            np.testing.assert_array_equal(a, r)
            assert a.flags.owndata and a.flags.writeable


def test_results_are_independent_copies():
    p = Pair(two_output_model())
    xs = inputs(3)
    ref = p.step(xs[0])
    a = p.ours.get_tensor(p.outs[0])
    b = p.ours.get_tensor(p.outs[0])
    assert a is not b
    a[...] = 99.0
    np.testing.assert_array_equal(b, ref[0])
    np.testing.assert_array_equal(p.ours.get_tensor(p.outs[0]), ref[0])


@pytest.mark.parametrize("reach", ["view", "memoryview", "container", "weakref"])
def test_reachable_result_is_never_refilled(reach):
    p = Pair(two_output_model())
    xs = inputs(2, seed=1)
    first = p.step(xs[0])[0]
    a = p.ours.get_tensor(p.outs[0])
    if reach == "view":
        keep = a[:, 1:]
    elif reach == "memoryview":
        keep = memoryview(a)
    elif reach == "container":
        keep = [a]
    else:
        keep = weakref.ref(a)
    del a
    gc.collect()
    second = p.step(xs[1])[0]
    np.testing.assert_array_equal(p.ours.get_tensor(p.outs[0]), second)
    if reach == "view":
        np.testing.assert_array_equal(keep, first[:, 1:])
    elif reach == "memoryview":
        np.testing.assert_array_equal(np.asarray(keep), first)
    elif reach == "container":
        np.testing.assert_array_equal(keep[0], first)
    else:  # either released or still the first result, never refilled
        assert keep() is None or np.array_equal(keep(), first)


@pytest.mark.parametrize("change", ["readonly", "reshape", "dtype"])
def test_result_changed_in_place_is_not_refilled(change):
    p = Pair(two_output_model())
    xs = inputs(2, seed=2)
    p.step(xs[0])
    a = p.ours.get_tensor(p.outs[1])
    if change == "readonly":
        a.setflags(write=False)
    elif change == "reshape":
        a.shape = (4,)
    else:
        a.dtype = np.int32
    del a
    ref = p.step(xs[1])[1]
    b = p.ours.get_tensor(p.outs[1])
    assert b.dtype == np.float32 and b.shape == (1, 4) and b.flags.writeable
    np.testing.assert_array_equal(b, ref)


def test_resize_changes_the_result_shape():
    p = Pair(two_output_model())
    p.step(inputs(1)[0])
    p.ours.get_tensor(p.outs[0])
    for shape in ([3, 4], [1, 4], [2, 4]):
        p.resize(shape)
        for x in inputs(2, shape=tuple(shape), seed=shape[0]):
            ref = p.step(x)
            for o, r in zip(p.outs, ref):
                got = p.ours.get_tensor(o)
                assert got.shape == r.shape
                np.testing.assert_array_equal(got, r)


def test_input_tensor_reads_follow_set_tensor():
    p = Pair(two_output_model())
    for x in inputs(4, seed=3):
        p.ours.set_tensor(p.inp, x)
        np.testing.assert_array_equal(p.ours.get_tensor(p.inp), x)


@pytest.mark.parametrize("name", ["okay_nabu", "seed_dense_int8"])
def test_shared_model_round_trips(name):
    """Streaming state and int8 outputs, many invokes, results dropped each time
    as a benchmark loop does, then one held across the next invoke."""
    model = oracle.model_bytes(name)
    p = Pair(model)
    d = p.ours.get_input_details()[0]
    rng = np.random.default_rng(4)
    info = np.iinfo(d["dtype"]) if np.dtype(d["dtype"]).kind in "iu" else None
    held = None
    for k in range(12):
        shape = tuple(d["shape"])
        x = (rng.integers(info.min, info.max + 1, size=shape).astype(d["dtype"]) if info
             else rng.standard_normal(shape).astype(d["dtype"]))
        ref = p.step(x)
        for o, r in zip(p.outs, ref):
            np.testing.assert_array_equal(p.ours.get_tensor(o), r)
        if held is not None:
            np.testing.assert_array_equal(held[0], held[1])
        held = (p.ours.get_tensor(p.outs[0]), ref[0])
