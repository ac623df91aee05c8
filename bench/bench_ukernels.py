"""Speed of every ukernel this CPU runs on the real layer shapes of the shared
models, per family (numbers only; nothing asserts timings):

  qs8-qc8w-gemm, f32-gemm     int8 / float CONV_2D and FULLY_CONNECTED layers,
                              one column per kernel (GOP/s)
  qs8-qc8w-dwconv, f32-dwconv int8 / float DEPTHWISE_CONV_2D layers (depth
                              multiplier 1), one column per ISA: the kernel
                              select picks for the layer's taps (GOP/s)
  qs8-maxpool, qs8-avgpool,   MAX_POOL_2D / AVERAGE_POOL_2D layers, one
  f32-maxpool, f32-avgpool    column per kernel (Gelem/s: input values read)

Compiles bench/bench_ukernels.c and the bench/ukbench_<kind>.c files of the
chosen families with those families' kernels, each kernel file with its
ISA's flags and the release flags of setup.py (x86-64 host; ARM files are
skipped; avx512vnni kernels are built but only run on a CPU that has it),
feeds it one line per distinct layer shape and prints its tables, the best
of --reps timed repetitions of about --seconds each. GEMM shapes: m = output
pixels or batch rows, n = output channels, kc = input channels, ks = filter
taps; window shapes (dwconv, pooling; one image): output pixels, channels,
window, stride.

    python bench/bench_ukernels.py [MODEL ...] [--family NAME]... [--reps 5]
                                   [--seconds 0.01]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = os.environ.get("TFLITE_FAST_MODELS", str(ROOT.parent / "shared" / "models"))
DEFAULT_MODELS = ["mobilenet_v2_int8", "mobilenet_v3_small_int8", "kws_dscnn_int8",
                  "small_cnn_int8", "mobilenet_v2_float", "kws_dscnn_float", "small_cnn_float",
                  "face_detection_short_range"]
# family: the driver file (bench/ukbench_<kind>.c) that times it
FAMILIES = {"qs8-qc8w-gemm": "gemm", "f32-gemm": "gemm", "qs8-qc8w-dwconv": "dwconv",
            "f32-dwconv": "dwconv", "qs8-maxpool": "pool", "qs8-avgpool": "pool",
            "f32-maxpool": "pool", "f32-avgpool": "pool"}
FLAGS = ["-std=c11", "-D_GNU_SOURCE", "-O2", "-ffp-contract=off", "-fno-math-errno", "-Wall",
         f"-I{ROOT / 'csrc'}"]
ISA_FLAGS = {"sse41": ["-msse4.1"], "avx2": ["-mavx2", "-mfma"],
             "avx512vnni": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl",
                            "-mavx512vnni"]}


def build(out_dir, kinds):
    """The driver with the ukbench_<kind>.c files, csrc/cpu and all kernel
    files of those kinds' families (a driver file references them all)."""
    srcs = [ROOT / "csrc" / "cpu" / "cpu.c", ROOT / "bench" / "bench_ukernels.c"]
    for kind in kinds:
        srcs.append(ROOT / "bench" / ("ukbench_%s.c" % kind))
        for fam in sorted(f for f, k in FAMILIES.items() if k == kind):
            srcs += sorted((ROOT / "csrc" / "ukernels" / fam).glob("*.c"))
    defs = ["-DTFF_BUILD_%s=1" % isa.upper() for isa in ISA_FLAGS]
    defs += ["-DUKB_%s=1" % kind.upper() for kind in kinds]
    cmds = []
    for src in srcs:
        isa = next((p for p in src.stem.split("-") if p in ISA_FLAGS or p.startswith("neon")), None)
        if isa is not None and isa not in ISA_FLAGS:
            continue  # an ARM kernel
        obj = Path(out_dir) / (src.name + ".o")
        cmds.append(["gcc"] + FLAGS + defs + ISA_FLAGS.get(isa, []) +
                    [f"-I{ROOT / 'bench'}", "-c", str(src), "-o", str(obj)])
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for _ in pool.map(lambda cmd: subprocess.run(cmd, check=True), cmds):
            pass
    exe = Path(out_dir) / "bench_ukernels"
    subprocess.run(["gcc"] + [cmd[-1] for cmd in cmds] + ["-lm", "-o", str(exe)], check=True)
    return exe


def _probe():
    """A delegate that claims no node: the runtime shows it every node with
    its options and tensor shapes, which the interpreter API does not."""
    from tflite_fast.delegate import PythonDelegate

    class Probe(PythonDelegate):
        def __init__(self):
            super().__init__()
            self.nodes = []

        def supports(self, node):
            self.nodes.append(node)
            return False

    return Probe()


def _window(x, y, w, opts):
    """(ih iw c oh ow kh kw sh sw dh dw pt pl) of a depthwise or pooling node."""
    kh, kw = (w[1], w[2]) if w is not None else (opts["filter_height"], opts["filter_width"])
    sh, sw = opts["stride_height"], opts["stride_width"]
    dh, dw = opts.get("dilation_height_factor", 1), opts.get("dilation_width_factor", 1)
    pads = []
    for i, o, k, s, d in ((x[1], y[1], kh, sh, dh), (x[2], y[2], kw, sw, dw)):
        total = max((o - 1) * s + (k - 1) * d + 1 - i, 0) if opts["padding"] == "SAME" else 0
        pads.append(total // 2)  # TFLite puts the odd pixel after
    return tuple(int(v) for v in (x[1], x[2], x[3], y[1], y[2], kh, kw, sh, sw, dh, dw, *pads))


def layer_shapes(name):
    """[(family, numbers, label)] of the model's layers the families time."""
    import tflite_fast.interpreter as tff
    path = name if name.endswith(".tflite") else os.path.join(MODELS_DIR, name + ".tflite")
    probe = _probe()
    tff.Interpreter(model_path=path, experimental_delegates=[probe])
    out = []
    for node in probe.nodes:
        ins = [t for t in node.inputs if t is not None]
        if not ins or not node.outputs:
            continue
        x, y = ins[0]["shape"], node.outputs[0]["shape"]
        dt = np.dtype(ins[0]["dtype"])
        wdt = np.dtype(ins[1]["dtype"]) if len(ins) > 1 else None
        prefix = {np.dtype(np.int8): "qs8", np.dtype(np.float32): "f32"}.get(dt)
        if prefix is None or (wdt is not None and wdt != dt):
            continue  # other types, hybrid weights
        if node.op_name in ("CONV_2D", "FULLY_CONNECTED"):
            w = ins[1]["shape"]
            ks = int(w[1] * w[2]) if node.op_name == "CONV_2D" else 1
            family = "qs8-qc8w-gemm" if prefix == "qs8" else "f32-gemm"
            key = (int(np.prod(y[:-1])), int(w[0]), int(w[-1]), ks)
        elif node.op_name == "DEPTHWISE_CONV_2D":
            w = ins[1]["shape"]
            if w[3] != x[3] or x[0] != 1:
                continue  # depth multiplier > 1 or a batch: not the kernels' case
            family = "qs8-qc8w-dwconv" if prefix == "qs8" else "f32-dwconv"
            key = _window(x, y, w, node.builtin_options)
        elif node.op_name in ("MAX_POOL_2D", "AVERAGE_POOL_2D") and x[0] == 1:
            family = "%s-%spool" % (prefix, "max" if node.op_name == "MAX_POOL_2D" else "avg")
            key = _window(x, y, None, node.builtin_options)
        else:
            continue
        out.append((family, key, "%s:%d" % (Path(path).stem[:20], node.index)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    p.add_argument("--family", action="append", choices=sorted(FAMILIES),
                   help="time only this family (repeatable; default all)")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--seconds", type=float, default=0.01, help="length of one timed repetition")
    args = p.parse_args(argv)
    if os.uname().machine != "x86_64":
        sys.exit("bench_ukernels.py builds its driver for an x86-64 host")
    families = [f for f in FAMILIES if f in (args.family or FAMILIES)]
    shapes = {f: {} for f in families}  # family: {numbers: first label}
    for m in args.models:
        for family, key, label in layer_shapes(m):
            if family in shapes:
                shapes[family].setdefault(key, label)
    lines = "".join("%s %s %s\n" % (f, label, " ".join(map(str, key)))
                    for f in families for key, label in shapes[f].items())
    for f in families:
        if not shapes[f]:
            print("%s: no layers in these models" % f, flush=True)
    if not lines:
        return
    kinds = sorted({FAMILIES[f] for f in families if shapes[f]})
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp, kinds)
        subprocess.run([str(exe), str(args.reps), str(args.seconds)], input=lines, text=True,
                       check=True)


if __name__ == "__main__":
    main()
