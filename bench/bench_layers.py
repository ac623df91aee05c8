"""Per-layer latency of tflite_fast and ai-edge-litert's default (XNNPACK) interpreter.

Every operator of a shared model's main subgraph whose type is selected becomes a single-op
model at its real shapes and options: constant inputs keep their data, conv weights the model
computes (e.g. DEQUANTIZE of fp16) become random constants of that shape, and the other inputs
are graph inputs. Both runtimes invoke each layer in interleaved rounds (A B, A B, ...) so machine
noise hits both alike; a sample is `--reps` invokes, and the table shows medians per invoke,
biggest loss first (ours - XNNPACK in µs), with the total over the layers.

    python bench/bench_layers.py face_detection_short_range [--ops CONV_2D PAD]
                                 [--threads 1] [--rounds 15] [--reps 20] [--top 25]
"""
import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import flatbuffers  # noqa: E402
from model_builder import S, _AlignedBufferT  # noqa: E402
from test_ops_conv import layer_models  # noqa: E402

OPS = ["CONV_2D", "DEPTHWISE_CONV_2D", "PAD", "ADD", "MAX_POOL_2D", "AVERAGE_POOL_2D",
       "FULLY_CONNECTED", "CONCATENATION", "MEAN", "MUL"]


def layers(name, op_names, rng):
    """(label, model bytes) per selected op of the main subgraph: the tests' single-op
    models (test_ops_conv.layer_models), with conv weights that are graph inputs there (the
    model computes them) made random constants, so both runtimes pack them once."""
    out = []
    for label, model in layer_models(name, op_names):
        m = S.ModelT.InitFromPackedBuf(bytearray(model), 0)
        sg, op = m.subgraphs[0], m.subgraphs[0].operators[0]
        op_name = label.split()[-1]
        weights = op.inputs[1:] if op_name in ("CONV_2D", "DEPTHWISE_CONV_2D") else []
        for t in [t for t in weights if t >= 0 and t in sg.inputs]:
            tensor = sg.tensors[t]
            buf = _AlignedBufferT()
            buf.data = rng.standard_normal(tensor.shape).astype(np.float32).tobytes()
            m.buffers.append(buf)
            tensor.buffer = len(m.buffers) - 1
            sg.inputs = [i for i in sg.inputs if i != t]
        fb = flatbuffers.Builder(1024)
        fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
        shape = "x".join(str(d) for d in sg.tensors[op.inputs[0]].shape[1:])
        out.append((f"{label.split(' op ')[1]} {shape}", bytes(fb.Output())))
    return out


def time_layer(model, threads, rounds, reps, rng):
    import tflite_fast.interpreter as tff
    from ai_edge_litert import interpreter as lrt
    its = [tff.Interpreter(model_content=model, num_threads=threads),
           lrt.Interpreter(model_content=model, num_threads=threads)]
    for it in its:
        it.allocate_tensors()
        for d in it.get_input_details():
            x = rng.standard_normal(d["shape"]).astype(d["dtype"])
            it.set_tensor(d["index"], x)
        it.invoke()
    samples = [[], []]
    for _ in range(rounds):
        for k, it in enumerate(its):
            t0 = time.perf_counter()
            for _ in range(reps):
                it.invoke()
            samples[k].append((time.perf_counter() - t0) / reps)
    return [float(np.median(s)) for s in samples]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--ops", nargs="+", default=OPS)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--top", type=int, default=25)
    a = p.parse_args(argv)
    rng = np.random.default_rng(0)
    rows = []
    for label, model in layers(a.model, a.ops, rng):
        ours, xnn = time_layer(model, a.threads, a.rounds, a.reps, rng)
        rows.append((ours - xnn, label, ours, xnn))
    rows.sort(reverse=True)
    print("%-44s %10s %10s %7s %9s" % ("layer (input shape)", "ours µs", "XNNPACK µs", "ratio",
                                      "loss µs"))
    for loss, label, ours, xnn in rows[:a.top]:
        print("%-44s %10.1f %10.1f %7.2f %9.1f" % (label, ours * 1e6, xnn * 1e6, ours / xnn,
                                                   loss * 1e6))
    to, tx = sum(r[2] for r in rows), sum(r[3] for r in rows)
    print("%-44s %10.1f %10.1f %7.2f %9.1f" % ("total (%d layers)" % len(rows), to * 1e6,
                                               tx * 1e6, to / tx, (to - tx) * 1e6))


if __name__ == "__main__":
    main()
