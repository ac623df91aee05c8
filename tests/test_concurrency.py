"""One interpreter, one thread at a time; no leaks over many lifetimes (issue 7 item 7).

invoke runs without the GIL, so a second Python thread could otherwise write inputs,
re-plan the arena or invoke again while it runs. Both peers race there (or report a
misleading error); tflite_fast refuses with RuntimeError and the running invoke is not
disturbed. Distinct interpreters in parallel: tests/test_threads.py."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import oracle
from model_builder import ModelBuilder

BUSY = "in use by another thread"
IS_LITERT = os.environ.get("TFF_TEST_IMPL") == "ai_edge_litert"


def _block_model():
    """x, y -> custom op Block (x + y, waits for the test to let it finish) -> z."""
    b = ModelBuilder()
    x = b.tensor("x", [2, 3], np.float32)
    y = b.tensor("y", [2, 3], np.float32)
    z = b.tensor("z", [2, 3], np.float32)
    b.op("CUSTOM", [x, y], [z], custom_code="Block")
    b.inputs([x, y])
    b.outputs([z])
    return b.build()


@pytest.mark.skipif(IS_LITERT, reason="LiteRT races here; tflite_fast refuses")
def test_calls_during_another_threads_invoke_raise():
    tff = oracle.ours_module()
    started, finish = threading.Event(), threading.Event()

    class Block:
        def __init__(self, options):
            pass

        def invoke(self, x, y):
            started.set()
            assert finish.wait(30)
            return x + y

    it = tff.InterpreterWithCustomOps(custom_op_registerers=[lambda r: r.add_custom("Block", Block)],
                                      model_content=_block_model())
    it.allocate_tensors()
    (xi, yi), zi = [d["index"] for d in it.get_input_details()], it.get_output_details()[0]["index"]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    it.set_tensor(xi, x)
    it.set_tensor(yi, x)
    errors = []

    def run():
        try:
            it.invoke()
        except Exception as e:  # reported below: the first invoke must succeed
            errors.append(e)

    th = threading.Thread(target=run)
    th.start()
    try:
        assert started.wait(30)
        calls = {
            "invoke": it.invoke,
            "get_tensor": lambda: it.get_tensor(zi),
            "set_tensor": lambda: it.set_tensor(xi, x),
            "tensor": lambda: it.tensor(zi)(),
            "allocate_tensors": it.allocate_tensors,
            "resize_tensor_input": lambda: it.resize_tensor_input(xi, [2, 3]),
            "reset_all_variables": it.reset_all_variables,
        }
        for name, call in calls.items():
            with pytest.raises(RuntimeError, match=BUSY):
                call()
                pytest.fail(f"{name} did not refuse")
    finally:
        finish.set()
        th.join(30)
    assert not errors, errors
    np.testing.assert_array_equal(it.get_tensor(zi), x + x)
    # Released: the same calls work again from this thread.
    it.set_tensor(yi, np.ones((2, 3), np.float32))
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(zi), x + 1)


@pytest.mark.skipif(IS_LITERT, reason="LiteRT races here; tflite_fast refuses")
def test_two_threads_hammering_one_interpreter():
    """Every call either completes or is refused; nothing crashes and the results of
    completed invokes are the single-threaded ones."""
    tff = oracle.ours_module()
    it = tff.Interpreter(model_content=oracle.model_bytes("small_cnn_int8"))
    it.allocate_tensors()
    d_in, d_out = it.get_input_details()[0], it.get_output_details()[0]
    x = np.random.default_rng(1).integers(-128, 128, d_in["shape"]).astype(np.int8)
    it.set_tensor(d_in["index"], x)
    it.invoke()
    want = it.get_tensor(d_out["index"])
    counts = {"ok": 0, "busy": 0}
    lock = threading.Lock()
    bad = []

    def hammer():
        for _ in range(300):
            try:
                it.invoke()
                got = it.get_tensor(d_out["index"])
                ok = "ok"
                if not np.array_equal(got, want):
                    bad.append(got)
            except RuntimeError as e:
                if BUSY not in str(e):
                    bad.append(e)
                ok = "busy"
            with lock:
                counts[ok] += 1

    threads = [threading.Thread(target=hammer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad, bad[:3]
    assert counts["ok"] > 0 and counts["ok"] + counts["busy"] == 600


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _cycles(names, total, warmup):
    """total create/allocate/invoke/destroy cycles round-robin over names (model
    files and model_content alternately); RSS after warmup cycles and at the end."""
    tff = oracle.ours_module()
    blobs = {n: oracle.model_bytes(n) for n in names}
    paths = {n: str(oracle.MODELS_DIR / f"{n}.tflite") for n in names}
    before = None
    for k in range(total):
        if k == warmup:
            before = _rss_bytes()
        n = names[k % len(names)]
        it = (tff.Interpreter(model_path=paths[n]) if k % 2 else
              tff.Interpreter(model_content=blobs[n]))
        it.allocate_tensors()
        for d in it.get_input_details():
            it.set_tensor(d["index"], np.zeros(d["shape"], d["dtype"]))
        it.invoke()
        it.get_tensor(it.get_output_details()[0]["index"])
        del it
    return before, _rss_bytes()


def _rss_growth(names, total, warmup):
    """_cycles in a fresh process, so earlier tests' memory does not count. glibc's
    mmap threshold is pinned: by default it rises after big blocks are freed, and
    later big blocks (weights, arenas of MBs) then come from the heap, where mixing
    models fragments it into a plateau of a few tens of MB that is not a leak.
    Both samples follow the same model (total rounded up to whole rounds after
    warmup): between models RSS swings by what the last one left free in the heap
    below 1 MiB blocks, 10-14 MB after mobilenet_v2_float or mobilenet_v3_small_float,
    and back at the next model."""
    total += -(total - warmup) % len(names)
    tests = os.path.dirname(os.path.abspath(__file__))  # for `import oracle` in the child
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_=str(1 << 20),
               PYTHONPATH=os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, __file__, str(total), str(warmup)] + names, env=env,
                         capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    before, after = map(int, out.stdout.split())
    return after - before


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads RSS from /proc")
@pytest.mark.skipif(os.environ.get("TFF_UNDER_ASAN") == "1",
                    reason="ASan's quarantine holds freed memory; leaks: the libFuzzer harness")
def test_ten_thousand_lifetimes_small_models_rss_flat():
    # The small shared models (10^4 cycles in a few seconds). 2 MiB over 9000 cycles
    # catches a leak of ~230 bytes per cycle.
    grew = _rss_growth(["seed_dense_int8", "seed_dense_float", "small_cnn_int8", "small_cnn_float",
                        "kws_dscnn_int8", "okay_nabu"], 10_000, 1_000)
    assert grew <= 2 << 20, f"RSS grew {grew >> 10} KiB over 9000 cycles"


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads RSS from /proc")
@pytest.mark.skipif(os.environ.get("TFF_UNDER_ASAN") == "1",
                    reason="ASan's quarantine holds freed memory; leaks: the libFuzzer harness")
def test_ten_thousand_lifetimes_every_shared_model_rss_flat():
    names = oracle.shared_models()
    grew = _rss_growth(names, 10_000, 2 * len(names))
    assert grew <= 4 << 20, f"RSS grew {grew >> 10} KiB over 10^4 cycles of {len(names)} models"


if __name__ == "__main__":  # the child of _rss_growth: total warmup names...
    print(*_cycles(sys.argv[3:], int(sys.argv[1]), int(sys.argv[2])))
