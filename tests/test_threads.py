"""Threads: outputs must not depend on num_threads (kernels split output tiles only,
never reductions), and interpreters used concurrently from several Python threads
must not disturb each other (each owns its pool; invoke releases the GIL).
No timing assertions: bench/bench_threads.py measures scaling."""

import gc
import os
import threading

import numpy as np
import pytest

import oracle

MODELS = ["seed_dense_int8", "seed_dense_float", "small_cnn_int8", "small_cnn_float",
          "kws_dscnn_int8", "kws_dscnn_float", "mobilenet_v3_small_int8",
          "mobilenet_v3_small_float", "mobilenet_v2_int8"]


def _inputs(it, seed):
    rng = np.random.default_rng(seed)
    out = []
    for d in it.get_input_details():
        dt = np.dtype(d["dtype"])
        if dt.kind == "f":
            x = rng.standard_normal(d["shape"]).astype(dt)
        else:
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, size=d["shape"], endpoint=True).astype(dt)
        out.append((d["index"], x))
    return out


def _make(name, threads):
    tff = oracle.ours_module()
    it = tff.Interpreter(model_content=oracle.model_bytes(name), num_threads=threads)
    it.allocate_tensors()
    return it


def _run(it, inputs):
    for i, x in inputs:
        it.set_tensor(i, x)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


@pytest.mark.parametrize("name", MODELS)
def test_outputs_identical_for_every_thread_count(name):
    base = _make(name, 1)
    feeds = [_inputs(base, s) for s in range(2)]
    want = [_run(base, f) for f in feeds]
    for threads in (2, 3, 4):
        it = _make(name, threads)
        for f, w in zip(feeds, want):
            got = _run(it, f)
            for g, e in zip(got, w):
                assert g.dtype == e.dtype and g.shape == e.shape
                assert g.tobytes() == e.tobytes(), f"{name}: num_threads={threads} differs"


# Single-op models whose row tiles, channel blocks, im2col rows, row pieces and element
# blocks split unevenly over threads: (op, kind, shape parameters).
LAYERS = [
    ("CONV_2D", "int8", dict(n=2, h=23, w=19, cin=3, cout=37, kh=3, kw=3, stride=(2, 2))),
    ("CONV_2D", "int8", dict(n=1, h=17, w=13, cin=16, cout=45, kh=1, kw=1, stride=(1, 1))),
    ("CONV_2D", "int8", dict(n=1, h=9, w=11, cin=150, cout=21, kh=1, kw=1, stride=(1, 1))),
    ("CONV_2D", "int8", dict(n=1, h=12, w=10, cin=8, cout=24, kh=3, kw=3, stride=(1, 1))),
    ("CONV_2D", "float", dict(n=1, h=15, w=14, cin=5, cout=19, kh=3, kw=3, stride=(1, 2))),
    # packing split over threads (>= 64 KiB of weights a run): two groups of 75 and
    # of 165 channels, partial last blocks in each group
    ("CONV_2D", "float", dict(n=1, h=6, w=5, cin=128, cout=150, kh=3, kw=3, stride=(1, 1),
                              groups=2)),
    ("CONV_2D", "int8", dict(n=1, h=5, w=6, cin=1000, cout=330, kh=1, kw=1, stride=(1, 1),
                             groups=2)),
    # float weights over 256 KiB: items are (slice of 4 channel blocks, row tile), a
    # partial last block and a one-row last tile
    ("CONV_2D", "float", dict(n=1, h=7, w=7, cin=300, cout=229, kh=1, kw=1, stride=(1, 1))),
    ("CONV_2D", "float", dict(n=1, h=5, w=5, cin=64, cout=131, kh=3, kw=3, stride=(1, 1))),
    # 24 output channels: the 4x24 float tile (AVX2), a 3-row last tile
    ("CONV_2D", "float", dict(n=1, h=9, w=7, cin=40, cout=24, kh=1, kw=1, stride=(1, 1))),
    # few output rows: rows cut into pieces of pixels
    ("DEPTHWISE_CONV_2D", "int8", dict(n=1, h=7, w=9, cin=40, cout=40, kh=3, kw=3,
                                       stride=(1, 1))),
    ("DEPTHWISE_CONV_2D", "float", dict(n=2, h=6, w=5, cin=24, cout=24, kh=3, kw=3,
                                        stride=(2, 1))),
    ("FULLY_CONNECTED", "int8", dict(lead=[1], k=300, n=1001)),
    ("FULLY_CONNECTED", "int8", dict(lead=[5], k=40, n=77)),
    ("FULLY_CONNECTED", "float", dict(lead=[1], k=129, n=333)),
    # same-shape elementwise ops split in blocks of 4096 elements (a partial last one)
    ("ADD", "int8", dict(shape=[1, 29, 31, 24])),
    ("MUL", "float", dict(shape=[3, 47, 101])),
]


def _layer(op, kind, shape, seed):
    from test_ops_conv import ACTS, build
    from test_ops_fc import build_fc
    rng = np.random.default_rng(seed)
    if op == "FULLY_CONNECTED":
        return build_fc(kind, bias=True, act=ACTS[1], keep=False, rng=rng, zx=3, zy=-2, **shape)
    if op in ("ADD", "MUL"):
        from test_ops_elementwise import binary_model
        shp = shape["shape"]
        if kind == "int8":
            q = ((0.05, 3), (0.07, -9), (0.1, 2))
            return (binary_model(op, shp, shp, np.int8, ACTS[1], q),
                    [rng.integers(-128, 128, shp).astype(np.int8) for _ in range(2)])
        return (binary_model(op, shp, shp, np.float32, ACTS[0]),
                [rng.standard_normal(shp).astype(np.float32) for _ in range(2)])
    return build(op, kind, dilation=(1, 1), same=True, act=ACTS[2], bias=True, rng=rng, zx=-7,
                 zy=5, **shape)


@pytest.mark.parametrize("op,kind,shape", LAYERS)
def test_layer_identical_for_every_thread_count(op, kind, shape):
    """Each thread count gives the same bytes, and those match the oracle."""
    model, inputs = _layer(op, kind, shape, seed=len(str(shape)))
    tff = oracle.ours_module()
    outs = []
    for threads in (1, 2, 3):
        it = tff.Interpreter(model_content=model, num_threads=threads)
        it.allocate_tensors()
        outs.append(_run(it, list(zip([d["index"] for d in it.get_input_details()], inputs))))
    for threads, got in zip((2, 3), outs[1:]):
        for g, e in zip(got, outs[0]):
            assert g.tobytes() == e.tobytes(), f"{op} {kind}: num_threads={threads} differs"
    oracle.check(model, inputs, "default")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("names", [("kws_dscnn_int8", "kws_dscnn_int8"),
                                   ("small_cnn_float", "mobilenet_v3_small_int8")])
def test_two_interpreters_in_two_python_threads(names, threads):
    its = [_make(n, threads) for n in names]
    feeds = [[_inputs(it, s) for s in range(3)] for it in its]
    want = [[_run(_make(n, 1), f) for f in fs] for n, fs in zip(names, feeds)]
    errors = []

    def work(k):
        try:
            for rep in range(15):
                for f, w in zip(feeds[k], want[k]):
                    got = _run(its[k], f)
                    for g, e in zip(got, w):
                        assert g.tobytes() == e.tobytes(), f"{names[k]} rep {rep} differs"
        except Exception as e:  # noqa: BLE001 - reported on the main thread
            errors.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_interpreter_destroyed_with_live_pool():
    # Creating and dropping many pooled interpreters must neither leak threads
    # nor hang on shutdown (workers may be asleep or still spinning).
    tasks = "/proc/self/task"
    if not os.path.isdir(tasks):
        pytest.skip("needs /proc/self/task to count native threads")
    gc.collect()  # interpreters of earlier tests may still hold pools
    before = len(os.listdir(tasks))
    for _ in range(20):
        it = _make("kws_dscnn_int8", 3)
        _run(it, _inputs(it, 0))
        del it
    gc.collect()
    assert len(os.listdir(tasks)) <= before
