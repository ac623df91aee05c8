"""atheris harness over the Python entry points (pip install atheris).

    python tests/fuzz/fuzz_python.py [libFuzzer flags] CORPUS_DIR [SEED_DIR...]
    tests/fuzz/run_fuzz.sh with FUZZ_PYTHON=SECONDS runs it on the seed corpus

Each input is a candidate .tflite file and goes through what a user calls:
Interpreter(model_content=...), the details getters, signatures, op details,
allocate_tensors(), set_tensor() of zeros, invoke(), get_tensor(), a
SignatureRunner, and tflite_fast.metadata.read(). The documented exceptions
(ValueError, RuntimeError, MemoryError) are fine; any other exception is a
finding, and so is a crash of the extension (reported by the process dying).

The Python modules are instrumented for coverage; the extension is not,
unless it was built with clang and -fsanitize=fuzzer-no-link (then atheris
also sees its edges; see tests/fuzz/run_fuzz.sh for the flags).
"""
import sys

import atheris

with atheris.instrument_imports():
    import numpy as np

    import tflite_fast.interpreter as tfl
    from tflite_fast import metadata

EXPECTED = (ValueError, RuntimeError, MemoryError)
MAX_ARENA = 1 << 20  # as fuzz_model.c: bigger graphs are allocated, not invoked


def _zeros(d):
    return np.zeros([int(x) for x in d["shape"]], dtype=d["dtype"])


def _exercise(data):
    it = tfl.Interpreter(model_content=data)
    it.get_input_details()
    it.get_output_details()
    it.get_tensor_details()
    it._get_ops_details()
    sigs = it.get_signature_list()
    it.allocate_tensors()
    if it.arena_bytes > MAX_ARENA:
        return
    for d in it.get_input_details():
        it.set_tensor(d["index"], _zeros(d))
    it.invoke()
    for d in it.get_output_details():
        it.get_tensor(d["index"])
    for key in sigs:
        runner = it.get_signature_runner(key)
        ins = runner.get_input_details()
        if sum(_zeros(d).nbytes for d in ins.values()) <= MAX_ARENA:
            runner(**{name: _zeros(d) for name, d in ins.items()})


def TestOneInput(data):
    try:
        _exercise(data)
    except EXPECTED as e:
        if not str(e):
            raise AssertionError("%s without a message" % type(e).__name__)
    try:
        metadata.read(data)
    except ValueError:
        pass


def main():
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
