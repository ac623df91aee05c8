#!/usr/bin/env python3
"""Smoke test for an installed wheel, identical on every platform.

    python smoke_models.py MODELS_DIR --write expected.json   # on x86
    python smoke_models.py MODELS_DIR --check expected.json   # on ARM (qemu)
    python smoke_models.py bundled --check expected_digests.json   # any wheel

MODELS_DIR "bundled" means the model shipped inside the package (small_cnn_int8
only); models missing from MODELS_DIR are skipped, and --check compares the
runs made (at least one) with the recorded digests.

Imports tflite_fast, prints show_config(), runs the shared int8 models with
fixed inputs in both numerics modes (default and BUILTIN_REF) and records the
SHA-256 of every output's bytes. Inputs come from SHA-256 counters, not a numpy
RNG, so they are the same bytes under any numpy version. --check exits 1 when
any output differs from the x86 bits (docs/numerics.md: int8 results are the
same on every ISA).
"""
import hashlib
import json
import os
import sys

import numpy as np

import tflite_fast
import tflite_fast.interpreter as tfl

MODELS = ["small_cnn_int8", "kws_dscnn_int8", "mobilenet_v2_int8", "seed_dense_int8"]
SEEDS = [0, 1]


def input_bytes(tag, n):
    out = bytearray()
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f"{tag}/{i}".encode()).digest()
        i += 1
    return bytes(out[:n])


def make_input(detail, tag):
    shape = tuple(int(d) for d in detail["shape"])
    dtype = np.dtype(detail["dtype"])
    n = int(np.prod(shape)) if shape else 1
    raw = np.frombuffer(input_bytes(tag, n * dtype.itemsize), dtype=np.uint8)
    if dtype in (np.int8, np.uint8):
        return raw.view(dtype).reshape(shape).copy()
    if dtype == np.float32:
        # Exact in float32: k/128 - 1 for k in 0..255.
        u = raw[: n].astype(np.float32)
        return (u / np.float32(128) - np.float32(1)).reshape(shape)
    raise SystemExit(f"unsupported input dtype {dtype}")


def run(models_dir):
    if models_dir == "bundled":
        models_dir = os.path.dirname(tflite_fast.default_model_path())
    results = {}
    modes = {"default": tfl.OpResolverType.AUTO, "ref": tfl.OpResolverType.BUILTIN_REF}
    for name in MODELS:
        path = os.path.join(models_dir, name + ".tflite")
        if not os.path.exists(path):
            continue
        for mode, resolver in modes.items():
            it = tfl.Interpreter(model_path=path, experimental_op_resolver_type=resolver)
            it.allocate_tensors()
            for seed in SEEDS:
                for k, d in enumerate(it.get_input_details()):
                    it.set_tensor(d["index"], make_input(d, f"{name}/{seed}/{k}"))
                it.invoke()
                digests = [hashlib.sha256(np.ascontiguousarray(it.get_tensor(d["index"])).tobytes()).hexdigest()
                           for d in it.get_output_details()]
                results[f"{name}/{mode}/seed{seed}"] = digests
    return results


def main(argv):
    if len(argv) != 3 or argv[1] not in ("--write", "--check"):
        raise SystemExit(__doc__)
    tflite_fast.show_config()
    results = run(argv[0])
    if argv[1] == "--write":
        with open(argv[2], "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
        print(f"wrote {len(results)} output digests to {argv[2]}")
        return 0
    with open(argv[2]) as f:
        expected = json.load(f)
    bad = [k for k in results if expected.get(k) != results[k]]
    for k in sorted(results):
        print(f"{k}: {'same bits' if k not in bad else 'DIFFERENT'}")
    print(f"{len(results) - len(bad)}/{len(results)} runs bit-identical to x86")
    return 1 if bad or not results else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
