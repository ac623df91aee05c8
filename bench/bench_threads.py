"""Thread scaling of tflite_fast (numbers only; tests never assert timings).

1. Two interpreters invoked from two Python threads vs one interpreter in one
   thread: throughput ratio (invokes per second, both threads together / one).
   invoke() releases the GIL and interpreters share no lock, so this should
   approach 2x on a machine with 2 free cores (issue 3 wants >= 1.8x).
2. One interpreter at num_threads=2 vs 1 on a bigger model: latency ratio.

    python bench/bench_threads.py [--model kws_dscnn_int8] [--big mobilenet_v2_int8]
                                  [--seconds 2]
"""
import argparse
import os
import threading
import time

import numpy as np

MODELS_DIR = os.environ.get("TFLITE_FAST_MODELS",
                            os.path.join(os.path.dirname(__file__), "..", "..", "shared", "models"))


def make(name, threads):
    import tflite_fast.interpreter as tff
    it = tff.Interpreter(model_path=os.path.join(MODELS_DIR, name + ".tflite"), num_threads=threads)
    it.allocate_tensors()
    rng = np.random.default_rng(0)
    for d in it.get_input_details():
        dt = np.dtype(d["dtype"])
        if dt.kind == "f":
            x = rng.standard_normal(d["shape"]).astype(dt)
        else:
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, size=d["shape"], endpoint=True).astype(dt)
        it.set_tensor(d["index"], x)
    return it


def invokes_in(its, seconds):
    """(total invokes, total thread CPU seconds) of len(its) Python threads
    (one interpreter each) running for `seconds`."""
    counts = [0] * len(its)
    cpu = [0.0] * len(its)
    start = threading.Barrier(len(its) + 1)
    deadline = [0.0]

    def work(k):
        it = its[k]
        start.wait()
        c0 = time.thread_time()
        n = 0
        while time.perf_counter() < deadline[0]:
            it.invoke()
            n += 1
        counts[k] = n
        cpu[k] = time.thread_time() - c0

    ts = [threading.Thread(target=work, args=(k,)) for k in range(len(its))]
    for t in ts:
        t.start()
    deadline[0] = time.perf_counter() + seconds
    start.wait()
    for t in ts:
        t.join()
    return sum(counts), sum(cpu)


def latency(it, rounds):
    it.invoke()
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        it.invoke()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="kws_dscnn_int8", help="model for the two-interpreter test")
    ap.add_argument("--big", default="mobilenet_v2_int8", help="model for num_threads 2 vs 1")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=30)
    a = ap.parse_args(argv)
    print("cores: %d" % os.cpu_count())

    a_one = make(a.model, 1)
    a_two = [make(a.model, 1), make(a.model, 1)]
    invokes_in([a_one], 0.2)  # warm up
    n1, cpu1 = invokes_in([a_one], a.seconds)
    n2, cpu2 = invokes_in(a_two, a.seconds)
    one, two = n1 / a.seconds, n2 / a.seconds
    print("%s: 1 interpreter / 1 thread: %.0f invokes/s; 2 interpreters / 2 threads: %.0f invokes/s; "
          "ratio %.2fx" % (a.model, one, two, two / one))
    # Wall-clock scaling needs two idle cores; invokes per CPU-second staying
    # equal shows the two interpreters do not serialize on anything.
    print("  invokes per CPU-second: %.0f (1 thread) vs %.0f (2 threads): %.2fx; load average %s"
          % (n1 / cpu1, n2 / cpu2, (n2 / cpu2) / (n1 / cpu1),
             " ".join("%.1f" % x for x in os.getloadavg())))

    t1 = latency(make(a.big, 1), a.rounds)
    t2 = latency(make(a.big, 2), a.rounds)
    print("%s: num_threads=1 %.2f ms; num_threads=2 %.2f ms; speedup %.2fx"
          % (a.big, t1 * 1e3, t2 * 1e3, t1 / t2))


if __name__ == "__main__":
    main()
