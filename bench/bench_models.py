"""Side-by-side latency of tflite_fast and ai-edge-litert, in one process.

For each model and thread count, the runtimes are invoked in interleaved
rounds (A B C, A B C, ...) so machine noise hits all of them alike; each
sample is one round trip (set_tensor + invoke + get_tensor). Prints medians
and ratios (tflite_fast / other; < 1 means tflite_fast is faster).

    python bench/bench_models.py [MODEL ...] [--threads 1 2] [--rounds 30]
"""
import argparse
import os
import sys
import time

import numpy as np

MODELS_DIR = os.environ.get("TFLITE_FAST_MODELS",
                            os.path.join(os.path.dirname(__file__), "..", "..", "shared", "models"))
DEFAULT_MODELS = [
    "seed_dense_float", "seed_dense_int8", "small_cnn_int8", "small_cnn_float", "kws_dscnn_int8",
    "kws_dscnn_float", "mobilenet_v2_int8", "mobilenet_v2_float", "mobilenet_v3_small_int8",
    "face_detection_short_range",
]


def _inputs(it, rng):
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


class Runner:
    def __init__(self, name, make):
        self.name = name
        self.it = make()
        self.it.allocate_tensors()
        self.ins = _inputs(self.it, np.random.default_rng(0))
        self.outs = [d["index"] for d in self.it.get_output_details()]
        self.samples = []

    def once(self):
        it = self.it
        t0 = time.perf_counter()
        for i, x in self.ins:
            it.set_tensor(i, x)
        it.invoke()
        for o in self.outs:
            it.get_tensor(o)
        self.samples.append(time.perf_counter() - t0)


def bench(path, threads, rounds, warmup):
    import tflite_fast.interpreter as tff
    from ai_edge_litert import interpreter as lrt
    runners = [
        Runner("tflite_fast", lambda: tff.Interpreter(model_path=path, num_threads=threads)),
        Runner("litert_xnnpack", lambda: lrt.Interpreter(model_path=path, num_threads=threads)),
        Runner("litert_builtin", lambda: lrt.Interpreter(
            model_path=path, num_threads=threads,
            experimental_op_resolver_type=lrt.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)),
    ]
    for _ in range(warmup):
        for r in runners:
            r.once()
    for r in runners:
        r.samples.clear()
    for _ in range(rounds):
        for r in runners:
            r.once()
    return {r.name: float(np.median(r.samples)) for r in runners}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    args = p.parse_args(argv)
    print("| model | threads | tflite_fast ms | litert XNNPACK ms | litert builtin ms | ratio vs XNNPACK | ratio vs builtin |")
    print("|---|---|---|---|---|---|---|")
    for m in args.models:
        path = m if m.endswith(".tflite") else os.path.join(MODELS_DIR, m + ".tflite")
        for t in args.threads:
            try:
                r = bench(path, t, args.rounds, args.warmup)
            except Exception as e:  # report and go on: one model must not hide the others
                print("| %s | %d | error: %s |" % (m, t, str(e).splitlines()[0][:80]))
                continue
            f, x, b = r["tflite_fast"], r["litert_xnnpack"], r["litert_builtin"]
            print("| %s | %d | %.3f | %.3f | %.3f | %.2f | %.2f |" % (m, t, f * 1e3, x * 1e3, b * 1e3, f / x, f / b))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
