"""Run a model in ai_edge_litert (the oracle) and in tflite_fast, and compare the outputs.

Modes: 'default' = OpResolverType.AUTO (XNNPACK + optimized builtins: tflite_fast's
default numerics), 'ref' = OpResolverType.BUILTIN_REF (reference kernels: tflite_fast's
reference numerics). 'builtin' (BUILTIN_WITHOUT_DEFAULT_DELEGATES) is accepted too, for
tests that need an un-delegated oracle (e.g. op details without DELEGATE nodes).

Env TFF_TEST_IMPL=ai_edge_litert makes `run_ours` (and `ours_module()`, used by the API
tests) use ai_edge_litert itself. The API, model and op tests then pass, which shows they
check LiteRT's behaviour and not something only tflite_fast does; the exceptions are where
LiteRT itself falls short of the rules (it aborts in BUILTIN_REF on the int8 MobileNets and
crashes or raises the wrong exception type on some malformed models, test_malformed).
"""

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

__all__ = [
    "MODELS_DIR", "shared_models", "model_bytes", "MODES", "ours_module", "oracle_module",
    "resolver", "make_interpreter", "run_interpreter", "run_oracle", "run_ours",
    "run_oracle_subprocess", "call_in_subprocess", "ChildCrashed", "ChildError",
    "assert_outputs_match", "assert_same", "check", "check_rejected", "random_inputs",
    "input_details",
]

MODES = ("default", "ref")
_RESOLVER_NAMES = {
    "default": "AUTO",
    "ref": "BUILTIN_REF",
    "builtin": "BUILTIN_WITHOUT_DEFAULT_DELEGATES",
}
_TESTS_DIR = Path(__file__).resolve().parent

# ../shared/models beside the checkout; TFLITE_FAST_MODELS overrides.
MODELS_DIR = Path(os.environ.get("TFLITE_FAST_MODELS",
                                 _TESTS_DIR.parents[1] / "shared" / "models"))


def shared_models():
    """Stems of every .tflite in MODELS_DIR, sorted."""
    return sorted(p.stem for p in MODELS_DIR.glob("*.tflite"))


def model_bytes(name):
    """Contents of a shared model by stem ('mobilenet_v2_int8')."""
    return (MODELS_DIR / f"{name}.tflite").read_bytes()


def oracle_module():
    """ai_edge_litert.interpreter, imported on first use (children that only run
    tflite_fast skip its ~20 MB of shared libraries)."""
    import ai_edge_litert.interpreter as litert

    return litert


def ours_module():
    """The interpreter module under test: tflite_fast.interpreter unless TFF_TEST_IMPL says otherwise."""
    impl = os.environ.get("TFF_TEST_IMPL", "tflite_fast")
    if impl == "ai_edge_litert":
        return oracle_module()
    if impl != "tflite_fast":
        raise ValueError(f"TFF_TEST_IMPL must be 'tflite_fast' or 'ai_edge_litert', not {impl!r}")
    import tflite_fast.interpreter as tff

    return tff


def resolver(module, mode):
    """The OpResolverType member of `module` for a mode name."""
    try:
        return getattr(module.OpResolverType, _RESOLVER_NAMES[mode])
    except KeyError:
        raise ValueError(f"mode must be one of {sorted(_RESOLVER_NAMES)}, not {mode!r}") from None


def make_interpreter(module, model_bytes, mode, **kwargs):
    return module.Interpreter(model_content=model_bytes,
                              experimental_op_resolver_type=resolver(module, mode),
                              num_threads=1, **kwargs)


def run_interpreter(interp, inputs):
    """Allocate (resizing inputs whose shape differs from the model's), set the inputs in
    get_input_details() order, invoke, return copies of the outputs."""
    details = interp.get_input_details()
    if len(inputs) != len(details):
        raise ValueError(f"model has {len(details)} inputs, got {len(inputs)}")
    for d, x in zip(details, inputs):
        if tuple(d["shape"]) != np.shape(x):
            interp.resize_tensor_input(d["index"], list(np.shape(x)))
    interp.allocate_tensors()
    for d, x in zip(details, inputs):
        interp.set_tensor(d["index"], x)
    interp.invoke()
    return [interp.get_tensor(d["index"]) for d in interp.get_output_details()]


def run_oracle(model_bytes, inputs, mode):
    """Outputs of ai_edge_litert for `inputs` (list, in get_input_details() order)."""
    return run_interpreter(make_interpreter(oracle_module(), model_bytes, mode), inputs)


def run_ours(model_bytes, inputs, mode):
    """Outputs of the implementation under test, same arguments as run_oracle."""
    return run_interpreter(make_interpreter(ours_module(), model_bytes, mode), inputs)


# --- child processes -------------------------------------------------------------


class ChildCrashed(RuntimeError):
    """The child process died (signal or abort) instead of returning a result."""

    def __init__(self, what, returncode, stderr):
        self.returncode = returncode
        self.stderr = stderr
        how = (f"killed by signal {-returncode}" if returncode < 0
               else f"exited with status {returncode}")
        tail = stderr[-3000:]
        super().__init__(f"{what}: child process {how}; stderr tail:\n{tail}")


_CHILD = r"""
import pickle, sys, traceback
sys.path.insert(0, sys.argv[1])
import importlib
with open(sys.argv[2], 'rb') as f:
    module, func, args, kwargs = pickle.load(f)
try:
    result = (True, getattr(importlib.import_module(module), func)(*args, **kwargs))
except BaseException as e:  # sent back and re-raised in the parent
    result = (False, (type(e).__name__, str(e), traceback.format_exc()))
with open(sys.argv[3], 'wb') as f:
    pickle.dump(result, f)
"""


class ChildError(Exception):
    """A Python exception raised in the child; carries its type name, message, traceback."""

    def __init__(self, type_name, message, tb):
        self.type_name, self.message, self.child_traceback = type_name, message, tb
        super().__init__(f"{type_name}: {message}\n--- child traceback ---\n{tb}")


def call_in_subprocess(module, func, *args, timeout=600, env=None, **kwargs):
    """Call `module.func(*args, **kwargs)` (module importable from tests/) in a fresh Python
    process and return its result. A Python exception in the child is raised here as
    ChildError; a child that dies (segfault, abort) raises ChildCrashed."""
    with tempfile.TemporaryDirectory() as tmp:
        argf, resf = Path(tmp, "args.pkl"), Path(tmp, "result.pkl")
        argf.write_bytes(pickle.dumps((module, func, args, kwargs)))
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, str(_TESTS_DIR), str(argf), str(resf)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout,
            env=env)
        stderr = proc.stderr.decode(errors="replace")
        if proc.returncode != 0 or not resf.exists():
            raise ChildCrashed(f"{module}.{func}", proc.returncode or -1, stderr)
        ok, value = pickle.loads(resf.read_bytes())
    if not ok:
        raise ChildError(*value)
    return value


def run_oracle_subprocess(model_bytes, inputs, mode, timeout=600):
    """run_oracle in a child process: for oracle runs that abort the process (e.g.
    ai_edge_litert's BUILTIN_REF SOFTMAX on mobilenet_v2_int8). Raises ChildCrashed if the
    child dies."""
    return call_in_subprocess("oracle", "run_oracle", model_bytes, list(inputs), mode,
                              timeout=timeout)


# --- comparison -----------------------------------------------------------------


def _int_mismatch_message(ours, ref, context, max_diff):
    diff = np.abs(ours.astype(np.int64) - ref.astype(np.int64)) if ours.dtype != np.bool_ \
        else (ours != ref).astype(np.int64)
    bad = np.argwhere(diff > max_diff)
    lines = [f"{context}: {len(bad)} of {ref.size} elements differ"
             f"{' by more than %d' % max_diff if max_diff else ''} (max |diff| {diff.max()})"]
    for idx in bad[:8]:
        t = tuple(int(i) for i in idx)
        lines.append(f"  at {t}: ours {ours[t].item()!r}, ref {ref[t].item()!r}")
    return "\n".join(lines)


def assert_outputs_match(ours, ref, context="", max_lsb=0):
    """Assert two output lists agree.

    dtype and shape must match exactly. Integer and bool outputs must be equal
    (`max_lsb` allows |diff| <= max_lsb; only for comparing our own two modes where no
    oracle exists). Float outputs: rtol=1e-5, atol=1e-5*max|ref|. The atol term is needed
    because float kernels differ in summation order (XNNPACK vs builtin vs reference,
    and ours): the rounding error of a dot product scales with the magnitude of its terms,
    not of its result, so an output that cancels to near zero can differ by ~1e-7*|terms|
    and a purely relative test would fail on it. Scaling atol by the largest reference
    output keeps the bound at 1e-5 of the tensor's range.
    """
    ctx = context + ": " if context else ""
    assert len(ours) == len(ref), f"{ctx}{len(ours)} outputs, oracle has {len(ref)}"
    for k, (o, r) in enumerate(zip(ours, ref)):
        where = f"{ctx}output {k}"
        o, r = np.asarray(o), np.asarray(r)
        assert o.dtype == r.dtype, f"{where}: dtype {o.dtype}, oracle {r.dtype}"
        assert o.shape == r.shape, f"{where}: shape {o.shape}, oracle {r.shape}"
        if r.dtype.kind in "iub":
            if r.dtype.kind == "b":
                ok = np.array_equal(o, r)
            else:
                ok = bool(np.all(np.abs(o.astype(np.int64) - r.astype(np.int64)) <= max_lsb))
            if not ok:
                raise AssertionError(_int_mismatch_message(o, r, where, max_lsb))
        elif r.dtype.kind in "fc":
            finite = np.abs(r[np.isfinite(r)])
            scale = float(finite.max()) if finite.size else 0.0
            np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-5 * scale,
                                       err_msg=f"{where} (atol = 1e-5 * max|ref| = {1e-5 * scale:g})")
        else:
            assert o.tolist() == r.tolist(), f"{where}: values differ"


def assert_same(ours, ref, path="details"):
    """Deep equality with exact types: dict key order, list lengths, ndarray dtype/shape/values,
    numpy scalar *types* by identity, Python scalars by type and value."""
    if isinstance(ref, dict):
        assert isinstance(ours, dict), f"{path}: {type(ours).__name__}, expected dict"
        assert list(ours.keys()) == list(ref.keys()), (
            f"{path}: keys {list(ours.keys())}, expected {list(ref.keys())}")
        for k in ref:
            assert_same(ours[k], ref[k], f"{path}[{k!r}]")
    elif isinstance(ref, (list, tuple)):
        assert type(ours) is type(ref), f"{path}: {type(ours).__name__}, expected {type(ref).__name__}"
        assert len(ours) == len(ref), f"{path}: length {len(ours)}, expected {len(ref)}"
        for k, (o, r) in enumerate(zip(ours, ref)):
            assert_same(o, r, f"{path}[{k}]")
    elif isinstance(ref, np.ndarray):
        assert isinstance(ours, np.ndarray), f"{path}: {type(ours).__name__}, expected ndarray"
        assert ours.dtype == ref.dtype, f"{path}: dtype {ours.dtype}, expected {ref.dtype}"
        assert ours.shape == ref.shape, f"{path}: shape {ours.shape}, expected {ref.shape}"
        assert np.array_equal(ours, ref), f"{path}: {ours!r}, expected {ref!r}"
    elif isinstance(ref, type):
        assert ours is ref, f"{path}: {ours!r}, expected {ref!r}"
    else:
        assert type(ours) is type(ref), (
            f"{path}: {type(ours).__name__} {ours!r}, expected {type(ref).__name__} {ref!r}")
        assert ours == ref, f"{path}: {ours!r}, expected {ref!r}"


def check(model_bytes, inputs, mode):
    """Run the oracle and ours in `mode` and assert the outputs match; returns (ours, ref)."""
    ref = run_oracle(model_bytes, inputs, mode)
    ours = run_ours(model_bytes, inputs, mode)
    assert_outputs_match(ours, ref, context=f"mode={mode}")
    return ours, ref


def check_rejected(model_bytes, mode):
    """Both implementations must refuse the model at allocate_tensors() with RuntimeError
    (e.g. invalid op parameters caught in prepare). Returns (our message, oracle message)."""
    msgs = []
    for module in (ours_module(), oracle_module()):
        interp = make_interpreter(module, model_bytes, mode)
        try:
            interp.allocate_tensors()
        except RuntimeError as e:
            msgs.append(str(e))
            continue
        raise AssertionError(f"{module.__name__} accepted the model in mode {mode}")
    assert msgs[0].strip(), "empty error message"
    return tuple(msgs)


# --- inputs ---------------------------------------------------------------------


def input_details(model_bytes):
    """The oracle's get_input_details() for a model (no allocation needed)."""
    return make_interpreter(oracle_module(), model_bytes, "builtin").get_input_details()


def random_inputs(details, rng):
    """One array per details dict: integers over the dtype's full range, bools 50/50,
    floats standard normal."""
    out = []
    for d in details:
        shape = tuple(int(s) for s in d["shape"])
        dt = np.dtype(d["dtype"])
        if dt.kind == "b":
            out.append(rng.integers(0, 2, size=shape).astype(np.bool_))
        elif dt.kind in "iu":
            info = np.iinfo(dt)
            out.append(rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True))
        elif dt.kind == "f":
            out.append(rng.standard_normal(shape).astype(dt))
        elif dt.kind == "c":
            out.append((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt))
        else:
            raise ValueError(f"no random inputs for dtype {dt} ({d['name']})")
    return out
