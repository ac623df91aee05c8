"""GOP/s of every qs8-qc8w-gemm ukernel this CPU runs, on the GEMM shapes of
the shared int8 models' CONV_2D and FULLY_CONNECTED layers (numbers only).

Compiles bench/bench_ukernels.c with the family's kernels, each kernel file
with its ISA's flags and the release flags of setup.py (x86-64 host), feeds
it one line per distinct layer shape (m = output pixels or batch rows, n =
output channels, kc = input channels, ks = filter taps) and prints its table:
one column per kernel, the best of --reps timed repetitions.

    python bench/bench_ukernels.py [MODEL ...] [--reps 5] [--seconds 0.02]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = os.environ.get("TFLITE_FAST_MODELS", str(ROOT.parent / "shared" / "models"))
DEFAULT_MODELS = ["mobilenet_v2_int8", "mobilenet_v3_small_int8", "kws_dscnn_int8",
                  "small_cnn_int8"]
FLAGS = ["-std=c11", "-D_GNU_SOURCE", "-O2", "-ffp-contract=off", "-fno-math-errno", "-Wall",
         f"-I{ROOT / 'csrc'}"]
ISA_FLAGS = {"sse41": ["-msse4.1"], "avx2": ["-mavx2", "-mfma"],
             "avx512vnni": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl",
                            "-mavx512vnni"]}


def build(out_dir):
    """The driver, linked with csrc/cpu and every qs8-qc8w-gemm kernel file."""
    srcs = sorted((ROOT / "csrc" / "ukernels" / "qs8-qc8w-gemm").glob("*.c"))
    srcs += [ROOT / "csrc" / "cpu" / "cpu.c", ROOT / "bench" / "bench_ukernels.c"]
    defs = ["-DTFF_BUILD_%s=1" % isa.upper() for isa in ISA_FLAGS]
    objs = []
    for src in srcs:
        isa = next((p for p in src.stem.split("-") if p in ISA_FLAGS or p.startswith("neon")), None)
        if isa is not None and isa not in ISA_FLAGS:
            continue  # an ARM kernel
        obj = Path(out_dir) / (src.name + ".o")
        subprocess.run(["gcc"] + FLAGS + defs + ISA_FLAGS.get(isa, []) + ["-c", str(src), "-o", str(obj)],
                       check=True)
        objs.append(str(obj))
    exe = Path(out_dir) / "bench_ukernels"
    subprocess.run(["gcc"] + objs + ["-lm", "-o", str(exe)], check=True)
    return exe


def layer_shapes(name):
    """{(m, n, kc, ks): label} of the model's int8 CONV_2D and FULLY_CONNECTED nodes."""
    import tflite_fast.interpreter as tff
    path = name if name.endswith(".tflite") else os.path.join(MODELS_DIR, name + ".tflite")
    it = tff.Interpreter(model_path=path)
    it.allocate_tensors()
    shape = {d["index"]: d["shape"] for d in it.get_tensor_details()}
    dtype = {d["index"]: np.dtype(d["dtype"]) for d in it.get_tensor_details()}
    core = it._interpreter
    out = {}
    for i in range(len(it._get_ops_details())):
        op, ins, outs = core._node(i)[:3]
        if op not in ("CONV_2D", "FULLY_CONNECTED") or dtype[ins[0]] != np.int8:
            continue
        w, y = shape[ins[1]], shape[outs[0]]
        if op == "CONV_2D":
            key = (int(np.prod(y[:-1])), int(w[0]), int(w[3]), int(w[1] * w[2]))
        else:
            key = (int(np.prod(y[:-1])), int(w[0]), int(w[1]), 1)
        out.setdefault(key, "%s:%d" % (Path(path).stem[:20], i))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--seconds", type=float, default=0.02, help="length of one timed repetition")
    args = p.parse_args(argv)
    if os.uname().machine != "x86_64":
        sys.exit("bench_ukernels.py builds its driver for an x86-64 host")
    shapes = {}
    for m in args.models:
        for key, label in layer_shapes(m).items():
            shapes.setdefault(key, label)
    lines = "".join("%s %d %d %d %d\n" % ((label,) + key) for key, label in shapes.items())
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        subprocess.run([str(exe), str(args.reps), str(args.seconds)], input=lines, text=True,
                       check=True)


if __name__ == "__main__":
    main()
