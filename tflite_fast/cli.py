"""The `tflite-fast` command.

    tflite-fast run [MODEL] [--num_runs N] [--num_threads T] [--reference]

`run` loads a model (the bundled one by default), prints its inputs and
outputs, invokes it on random inputs and prints the latency.
"""
import argparse
import sys
import time

import numpy as np

from . import default_model_path
from .interpreter import Interpreter, OpResolverType


def _describe(d):
    q = d["quantization"]
    qs = "" if q == (0.0, 0) else "  scale=%g zero_point=%d" % q
    shape = [int(x) for x in d["shape"]]
    return "  %-40s %-8s %s%s" % (d["name"][:40], np.dtype(d["dtype"]).name, shape, qs)


def _random_input(d, rng):
    dt = np.dtype(d["dtype"])
    if dt.kind == "f":
        return rng.standard_normal(d["shape"]).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=d["shape"], endpoint=True).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=d["shape"]).astype(dt)
    raise ValueError("cannot make a random input of type %s" % dt)


def cmd_run(args):
    path = args.model or default_model_path()
    resolver = OpResolverType.BUILTIN_REF if args.reference else OpResolverType.AUTO
    t0 = time.perf_counter()
    it = Interpreter(model_path=path, num_threads=args.num_threads, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    t_init = time.perf_counter() - t0
    print("model:   %s" % path)
    print("numerics: %s, threads: %d, arena: %d bytes, init: %.2f ms"
          % ("reference" if args.reference else "default", args.num_threads, it.arena_bytes, t_init * 1e3))
    print("inputs:")
    for d in it.get_input_details():
        print(_describe(d))
    print("outputs:")
    for d in it.get_output_details():
        print(_describe(d))
    rng = np.random.default_rng(0)
    inputs = [(d["index"], _random_input(d, rng)) for d in it.get_input_details()]
    times = []
    for _ in range(max(1, args.num_runs)):
        t0 = time.perf_counter()
        for i, x in inputs:
            it.set_tensor(i, x)
        it.invoke()
        outs = [it.get_tensor(d["index"]) for d in it.get_output_details()]
        times.append(time.perf_counter() - t0)
    times = np.array(times) * 1e3
    print("invoke (set_tensor + invoke + get_tensor) over %d runs: median %.3f ms, min %.3f ms, mean %.3f ms"
          % (len(times), np.median(times), times.min(), times.mean()))
    for d, o in zip(it.get_output_details(), outs):
        flat = o.reshape(-1)
        print("output %s: %s%s" % (d["name"], np.array2string(flat[:10], precision=4),
                                   " ..." if flat.size > 10 else ""))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="tflite-fast", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a model on random inputs and time it")
    r.add_argument("model", nargs="?", help="a .tflite file (default: the bundled small CNN)")
    r.add_argument("--num_runs", type=int, default=50)
    r.add_argument("--num_threads", type=int, default=1)
    r.add_argument("--reference", action="store_true", help="use the reference (BUILTIN_REF) numerics")
    r.set_defaults(fn=cmd_run)
    args = p.parse_args(argv)
    try:
        return args.fn(args)
    except (ValueError, RuntimeError) as e:
        print("tflite-fast: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
