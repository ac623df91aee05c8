"""Side-by-side latency of tflite_fast and ai-edge-litert, in one process.

For each model and thread count, the runtimes are invoked in interleaved
rounds (A B C, A B C, ...) so machine noise hits all of them alike; each
sample is one round trip (set_tensor + invoke + get_tensor), or for models
faster than SAMPLE_S the mean of as many back-to-back round trips as fill
SAMPLE_S (the same count for every runtime), so the timer's own cost and the
cache misses one runtime causes the next do not swamp microseconds. Prints medians
and ratios (tflite_fast / other; < 1 means tflite_fast is faster). The
init column is Interpreter(model_path) + allocate_tensors() (median of a few
interleaved constructions), compared with ai-edge-litert's default (XNNPACK)
interpreter.

    python bench/bench_models.py [MODEL ...] [--threads 1 2] [--rounds 30]
                                 [--markdown]   # also writes bench/README.md, with the
                                                #   init of every shared model
    python bench/bench_models.py --init-only [--init-reps 31] [MODEL ...]
                                 # only the init column: min and median per runtime
"""
import argparse
import datetime
import os
import platform
import sys
import time

import numpy as np

MODELS_DIR = os.environ.get("TFLITE_FAST_MODELS",
                            os.path.join(os.path.dirname(__file__), "..", "..", "shared", "models"))
DEFAULT_MODELS = [
    "seed_dense_float", "seed_dense_int8", "small_cnn_int8", "small_cnn_float", "kws_dscnn_int8",
    "kws_dscnn_float", "mobilenet_v2_int8", "mobilenet_v2_float", "mobilenet_v3_small_int8",
    "face_detection_short_range", "okay_nabu",
]
SAMPLE_S = 5e-4


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

    def once(self, calls=1):
        it, ins, outs = self.it, self.ins, self.outs
        if len(ins) == 1 and len(outs) == 1:
            # The calls as a caller of a one-in, one-out model writes them: the loops
            # below over lists of one cost ~150 ns a round trip (10% of okay_nabu's).
            (i, x), = ins
            o, = outs
            t0 = time.perf_counter()
            for _ in range(calls):
                it.set_tensor(i, x)
                it.invoke()
                it.get_tensor(o)
        else:
            t0 = time.perf_counter()
            for _ in range(calls):
                for i, x in ins:
                    it.set_tensor(i, x)
                it.invoke()
                for o in outs:
                    it.get_tensor(o)
        self.samples.append((time.perf_counter() - t0) / calls)


def init_samples(makers, reps):
    """Seconds of make() + allocate_tensors() per name, the makers interleaved
    (A B, A B, ...) like the round trips, so load hits both alike."""
    samples = {name: [] for name in makers}
    for _ in range(reps):
        for name, make in makers.items():
            t0 = time.perf_counter()
            it = make()
            it.allocate_tensors()
            samples[name].append(time.perf_counter() - t0)
            del it
    return samples


def init_makers(path, threads):
    import tflite_fast.interpreter as tff
    from ai_edge_litert import interpreter as lrt
    return {
        "tflite_fast": lambda: tff.Interpreter(model_path=path, num_threads=threads),
        "litert_xnnpack": lambda: lrt.Interpreter(model_path=path, num_threads=threads),
    }


def bench(path, threads, rounds, warmup, init_reps=9):
    import tflite_fast.interpreter as tff
    from ai_edge_litert import interpreter as lrt
    inits = {name: float(np.median(v))
             for name, v in init_samples(init_makers(path, threads), init_reps).items()}
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
    calls = max(1, int(SAMPLE_S / max(min(r.samples) for r in runners)))
    for r in runners:
        r.samples.clear()
    for _ in range(rounds):
        for r in runners:
            r.once(calls)
    return {r.name: float(np.median(r.samples)) for r in runners}, inits


def machine():
    """(CPU model, logical cores, tflite_fast's effective ISAs)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    from tflite_fast import _core
    compiled, detected, effective = _core.cpu_config()
    return cpu, os.cpu_count(), effective


README_HEAD = """# Benchmarks

Generated by `python bench/bench_models.py --markdown{args}` on {date}.

- Machine: {cpu}, {cores} logical cores ({py} on {os})
- tflite_fast ISAs (effective): {isas}
- Load average at the start: {load} (other processes on the machine add noise)
- Each latency is the median round trip (set_tensor + invoke + get_tensor) over
  {rounds} interleaved rounds (below 0.5 ms, a sample is the mean of back-to-back round
  trips filling 0.5 ms; a one-in, one-out model's round trip is the three calls,
  no loop over its tensors); init is Interpreter(model_path) + allocate_tensors().
  Ratios are tflite_fast / other: below 1 means tflite_fast is faster.

"""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--markdown", action="store_true",
                   help="also write the machine, date, ISAs and this table to bench/README.md, "
                        "then the init table of every shared model")
    p.add_argument("--init-only", action="store_true",
                   help="only time Interpreter() + allocate_tensors(): min and median per runtime")
    p.add_argument("--init-reps", type=int, default=31)
    args = p.parse_args(argv)
    if args.init_only:
        return init_only(args)
    rows = ["| model | threads | tflite_fast ms | litert XNNPACK ms | litert builtin ms "
            "| ratio vs XNNPACK | ratio vs builtin | init ms (ours / XNNPACK) | init ratio |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        print(r)
    load = " ".join("%.1f" % x for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    for m in args.models:
        path = m if m.endswith(".tflite") else os.path.join(MODELS_DIR, m + ".tflite")
        for t in args.threads:
            try:
                r, init = bench(path, t, args.rounds, args.warmup)
            except Exception as e:  # report and go on: one model must not hide the others
                rows.append("| %s | %d | error: %s |" % (m, t, str(e).splitlines()[0][:80]))
                print(rows[-1])
                continue
            f, x, b = r["tflite_fast"], r["litert_xnnpack"], r["litert_builtin"]
            fi, xi = init["tflite_fast"], init["litert_xnnpack"]
            rows.append("| %s | %d | %.4f | %.4f | %.4f | %.2f | %.2f | %.3f / %.3f | %.2f |"
                        % (m, t, f * 1e3, x * 1e3, b * 1e3, f / x, f / b, fi * 1e3, xi * 1e3, fi / xi))
            print(rows[-1])
            sys.stdout.flush()
    if args.markdown:
        cpu, cores, isas = machine()
        given = " ".join(a for a in (argv if argv is not None else sys.argv[1:]) if a != "--markdown")
        head = README_HEAD.format(args=(" " + given) if given else "",
                                  date=datetime.date.today().isoformat(), cpu=cpu, cores=cores,
                                  py="Python " + platform.python_version(),
                                  os=platform.system() + " " + platform.machine(),
                                  isas=", ".join(isas) or "scalar only", rounds=args.rounds,
                                  load=load)
        every = sorted(f[:-7] for f in os.listdir(MODELS_DIR) if f.endswith(".tflite"))
        init_rows = init_only(args, every)
        out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "README.md")
        with open(out, "w") as fh:
            fh.write(head + "\n".join(rows) + INIT_HEAD.format(reps=args.init_reps)
                     + "\n".join(init_rows) + "\n")
        print("wrote %s" % out)


def init_only(args, models=None):
    """Prints (and returns) the init table of `models` (default: args.models)."""
    rows = ["| model | threads | ours min / median ms | XNNPACK min / median ms "
            "| ratio of mins | ratio of medians |", "|---|---|---|---|---|---|"]
    for r in rows:
        print(r)
    for m in models or args.models:
        path = m if m.endswith(".tflite") else os.path.join(MODELS_DIR, m + ".tflite")
        for t in args.threads:
            s = init_samples(init_makers(path, t), args.init_reps)
            f, x = np.array(s["tflite_fast"]) * 1e3, np.array(s["litert_xnnpack"]) * 1e3
            rows.append("| %s | %d | %.3f / %.3f | %.3f / %.3f | %.2f | %.2f |"
                        % (m, t, f.min(), np.median(f), x.min(), np.median(x),
                           f.min() / x.min(), np.median(f) / np.median(x)))
            print(rows[-1])
            sys.stdout.flush()
    return rows


INIT_HEAD = """

## Construction on every shared model

Interpreter(model_path) + allocate_tensors() of every model in ../shared/models,
{reps} interleaved constructions per runtime (issue 3 wants <= 0.5x ai-edge-litert's).

"""


if __name__ == "__main__":
    main()
