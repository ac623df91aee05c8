"""API conformance with ai_edge_litert 2.3 / tflite_runtime (shared/docs/api.md §1–§2).

The module under test is oracle.ours_module(): tflite_fast.interpreter, or ai_edge_litert
itself with TFF_TEST_IMPL=ai_edge_litert. Where tflite_fast deliberately differs, the test
says so and checks LiteRT's behaviour when run against LiteRT (IS_LITERT).
"""

import enum
import gc
import inspect
import threading
import time
import warnings

import numpy as np
import pytest

import oracle
from oracle import MODELS_DIR
from model_builder import ModelBuilder

tfl = oracle.ours_module()
litert = oracle.oracle_module()
IS_LITERT = tfl is litert
HELD = "reference to internal data"
C = np.array([1.0, 2.0, 3.0, 4.0], np.float32)


def tiny_model(dynamic=True, signatures=("serving_default",), variable=False):
    """y = (x + c) * c with x: float32 [1, 4] (batch dynamic if `dynamic`).
    Tensors: 0 x, 1 c, 2 t, 3 y (, 4 v: a legacy variable added to y -> 5 z)."""
    b = ModelBuilder()
    sig = [-1, 4] if dynamic else None
    x = b.tensor("x", [1, 4], np.float32, shape_signature=sig)
    c = b.const("c", C)
    t = b.tensor("t", [1, 4], np.float32, shape_signature=sig)
    b.op("ADD", [x, c], [t])
    y = b.tensor("y", [1, 4], np.float32, shape_signature=sig)
    b.op("MUL", [t, c], [y])
    out = y
    if variable:
        v = b.tensor("v", [1, 4], np.float32, is_variable=True)
        z = b.tensor("z", [1, 4], np.float32)
        b.op("ADD", [y, v], [z])
        out = z
    b.inputs([x])
    b.outputs([out])
    for key in signatures:
        b.signature(key, {"a": x}, {"out": out})
    return b.build()


def expected(x):
    return (x + C) * C


def make(model=None, **kw):
    return tfl.Interpreter(model_content=model if model is not None else tiny_model(), **kw)


def ready(model=None, **kw):
    it = make(model, **kw)
    it.allocate_tensors()
    return it


def shared(name):
    return MODELS_DIR / f"{name}.tflite"


X = np.array([[0.5, -1.0, 2.0, 3.5]], np.float32)


# --- §1.1 names ---------------------------------------------------------------------


def test_exported_names():
    for name in ["Interpreter", "SignatureRunner", "OpResolverType", "load_delegate", "Delegate",
                 "InterpreterWithCustomOps"]:
        assert hasattr(tfl, name), name
    assert issubclass(tfl.OpResolverType, enum.Enum)
    assert {m.name: m.value for m in tfl.OpResolverType} == {
        "AUTO": 0, "BUILTIN": 1, "BUILTIN_REF": 2, "BUILTIN_WITHOUT_DEFAULT_DELEGATES": 3}
    assert issubclass(tfl.InterpreterWithCustomOps, tfl.Interpreter)
    assert not hasattr(tfl.Interpreter, "get_ops_details")  # private only, as in LiteRT


# --- §1.2 constructor ---------------------------------------------------------------


def test_constructor_parameters_match_litert():
    ours = inspect.signature(tfl.Interpreter.__init__).parameters
    ref = inspect.signature(litert.Interpreter.__init__).parameters
    assert list(ours) == list(ref)
    for name, p in ref.items():
        if isinstance(p.default, enum.Enum):
            assert ours[name].default.name == p.default.name, name
        else:
            assert ours[name].default == p.default, name


def test_all_litert_kwargs_accepted():
    it = tfl.Interpreter(
        model_path=None, model_content=tiny_model(), experimental_delegates=None, num_threads=2,
        experimental_op_resolver_type=tfl.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
        experimental_preserve_all_tensors=False, experimental_disable_delegate_clustering=True,
        experimental_default_delegate_latest_features=False,
        experimental_compress_quantization_zero_points=True,
        experimental_disable_delegate_node_fusion=True,
        experimental_force_delegate_node_profiling=True)
    it.allocate_tensors()
    it.set_tensor(0, X)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)
    # Positional, in LiteRT's order.
    tfl.Interpreter(None, tiny_model(), None, 1, tfl.OpResolverType.AUTO).allocate_tensors()
    with pytest.raises(TypeError):
        tfl.Interpreter(model_content=tiny_model(), no_such_argument=1)


@pytest.mark.parametrize("kw", [
    {}, {"model_content": b""}, {"model_path": ""}, {"model_path": "", "model_content": b""},
    {"model_path": None, "model_content": None}])
def test_no_model(kw):
    with pytest.raises(ValueError, match="^`model_path` or `model_content` must be specified.$"):
        tfl.Interpreter(**kw)


def test_both_model_sources(tmp_path):
    p = tmp_path / "m.tflite"
    p.write_bytes(tiny_model())
    with pytest.raises(ValueError, match="^Can't both provide `model_path` and `model_content`$"):
        tfl.Interpreter(model_path=str(p), model_content=tiny_model())


def test_model_path_str_and_pathlib(tmp_path):
    p = tmp_path / "m.tflite"
    p.write_bytes(tiny_model())
    for path in (str(p), p):
        it = tfl.Interpreter(model_path=path)
        it.allocate_tensors()
        it.set_tensor(0, X)
        it.invoke()
        np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)


def big_fc(seed, n=640):
    """y = W x, x: float32 [1, 512]: over 1 MiB, so a model_path maps the file."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor("x", [1, 512], np.float32)
    w = b.const("w", rng.standard_normal((n, 512)).astype(np.float32))
    y = b.tensor("y", [1, n], np.float32)
    b.op("FULLY_CONNECTED", [x, w, -1], [y])
    b.inputs([x])
    b.outputs([y])
    return b.build()


def test_model_file_changed_between_interpreters(tmp_path):
    """tflite_fast keeps the mapping of the last model file released for the next
    interpreter of that file: each interpreter must still run the file as it is when
    built, whether rewritten in place (same inode and size), replaced, or resized."""
    p, xs = tmp_path / "fc.tflite", np.linspace(-1, 1, 512, dtype=np.float32)[None]

    def run(**source):
        it = tfl.Interpreter(**source)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], xs)
        it.invoke()
        y = it.get_tensor(it.get_output_details()[0]["index"])
        del it
        gc.collect()
        return y

    models = [big_fc(0), big_fc(1), big_fc(2), big_fc(3, n=700)]
    assert len(models[0]) == len(models[1]) > 1 << 20
    p.write_bytes(models[0])
    first = run(model_path=str(p))
    np.testing.assert_array_equal(first, run(model_content=models[0]))
    with open(p, "r+b") as f:
        f.write(models[1])
    for m in models[1:]:
        if m is not models[1]:
            q = tmp_path / "new.tflite"
            q.write_bytes(m)
            q.replace(p)
        got = run(model_path=str(p))
        assert got.shape != first.shape or not np.array_equal(got, first)
        np.testing.assert_array_equal(got, run(model_content=m))
        np.testing.assert_array_equal(got, run(model_path=str(p)))


def test_missing_file(tmp_path):
    p = tmp_path / "missing.tflite"
    with pytest.raises(ValueError) as e:
        tfl.Interpreter(model_path=str(p))
    assert f"Could not open '{p}'." in str(e.value)


@pytest.mark.parametrize("content", [b"garbage", b"\x00" * 64, b"1234TFL3" + b"\xff" * 100,
                                     b"\x08\x00\x00\x00TFL3"])
def test_garbage_model_is_value_error(content, tmp_path):
    with pytest.raises(ValueError) as e:
        tfl.Interpreter(model_content=content)
    assert str(e.value).strip()
    p = tmp_path / "g.tflite"
    p.write_bytes(content)
    with pytest.raises(ValueError) as e:
        tfl.Interpreter(model_path=str(p))
    assert str(e.value).strip()


def test_model_content_buffer_types():
    m = tiny_model()
    if IS_LITERT:
        for v in (bytearray(m), memoryview(m)):
            with pytest.raises(TypeError):
                tfl.Interpreter(model_content=v)
    else:
        # Deliberate extension (api.md §6 "buffer-protocol model_content"): bytearray and
        # memoryview work and give the same results as bytes.
        for v in (bytearray(m), memoryview(m)):
            it = tfl.Interpreter(model_content=v)
            it.allocate_tensors()
            it.set_tensor(0, X)
            it.invoke()
            np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)


@pytest.mark.parametrize("value", [2.0, np.int64(2), "2", np.int32(1)])
def test_num_threads_type(value):
    with pytest.raises(ValueError, match="^type of num_threads should be int$"):
        make(num_threads=value)


@pytest.mark.parametrize("value", [0, -1, -100])
def test_num_threads_range(value):
    with pytest.raises(ValueError, match="^num_threads should >= 1$"):
        make(num_threads=value)


@pytest.mark.parametrize("value", [None, 1, 2, 4, True])
def test_num_threads_accepted(value):
    it = ready(num_threads=value)
    it.set_tensor(0, X)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)


@pytest.mark.parametrize("value", [1, 0, "AUTO", None, litert.OpResolverType.AUTO])
def test_resolver_must_be_member(value):
    if IS_LITERT and value is litert.OpResolverType.AUTO:
        pytest.skip("that is a member when testing LiteRT itself")
    with pytest.raises(ValueError, match=f"^Unrecognized passed in op resolver type: {value}$"):
        make(experimental_op_resolver_type=value)


@pytest.mark.parametrize("member", ["AUTO", "BUILTIN", "BUILTIN_REF",
                                    "BUILTIN_WITHOUT_DEFAULT_DELEGATES"])
def test_every_resolver_runs(member):
    it = ready(experimental_op_resolver_type=getattr(tfl.OpResolverType, member))
    it.set_tensor(0, X)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)


def test_validation_order(tmp_path):
    # resolver, then num_threads, then the model source (LiteRT 2.3 order).
    with pytest.raises(ValueError, match="Unrecognized passed in op resolver type"):
        tfl.Interpreter(model_content=b"garbage", num_threads=0, experimental_op_resolver_type=1)
    with pytest.raises(ValueError, match="^type of num_threads should be int$"):
        tfl.Interpreter(num_threads=2.0)
    with pytest.raises(ValueError, match="^num_threads should >= 1$"):
        tfl.Interpreter(model_path=str(tmp_path / "missing.tflite"), num_threads=0)
    with pytest.raises(ValueError, match="^num_threads should >= 1$"):
        tfl.Interpreter(model_content=b"garbage", num_threads=0)


def test_preserve_all_tensors():
    with pytest.warns(UserWarning):
        it = make(experimental_preserve_all_tensors=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ref_it = make(experimental_preserve_all_tensors=True,
                      experimental_op_resolver_type=tfl.OpResolverType.BUILTIN_REF)
    for i in (it, ref_it):
        i.allocate_tensors()
        i.set_tensor(0, X)
        i.invoke()
        # The intermediate (tensor 2 = x + c) stays readable.
        np.testing.assert_allclose(i.get_tensor(2), X + C, rtol=1e-6)
        np.testing.assert_allclose(i.get_tensor(3), expected(X), rtol=1e-6)


# --- §1.3 lifecycle -------------------------------------------------------------------


def test_invoke_before_allocate():
    it = make()
    with pytest.raises(RuntimeError, match="Invoke called on model that is not ready."):
        it.invoke()


def test_allocate_idempotent():
    it = make()
    it.allocate_tensors()
    it.allocate_tensors()
    it.set_tensor(0, X)
    it.invoke()
    first = it.get_tensor(3)
    it.allocate_tensors()
    it.set_tensor(0, X)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(3), first)
    np.testing.assert_allclose(first, expected(X), rtol=1e-6)


def test_details_are_fresh_objects():
    it = make()
    a = it.get_input_details()
    a[0]["name"] = "changed"
    a[0]["shape"][0] = 99
    b = it.get_input_details()
    assert b[0]["name"] == "x" and b[0]["shape"][0] == 1


def test_get_tensor_and_set_tensor_before_allocate():
    it = make()
    with pytest.raises(ValueError, match="Tensor data is null. Run allocate_tensors\\(\\) first"):
        it.get_tensor(0)
    with pytest.raises(ValueError, match="Tensor data is null. Run allocate_tensors\\(\\) first"):
        it.tensor(0)()
    with pytest.raises(ValueError, match="Cannot set tensor: Tensor is unallocated. "
                                         "Try calling allocate_tensors\\(\\) first"):
        it.set_tensor(0, X)


def test_get_tensor_copies():
    it = ready()
    it.set_tensor(0, X)
    it.invoke()
    a = it.get_tensor(3)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.shape == (1, 4)
    assert a.flags.owndata and a.flags.writeable
    a[...] = -7
    np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)
    x = it.get_tensor(0)
    assert x.flags.owndata
    np.testing.assert_array_equal(x, X)


def test_tensor_returns_views_and_writes_are_seen():
    it = ready()
    get_in = it.tensor(0)
    assert callable(get_in)
    v = get_in()
    assert not v.flags.owndata and v.flags.writeable
    v[...] = X  # the zero-copy input path
    del v
    it.invoke()
    out = it.tensor(3)()
    assert not out.flags.owndata
    np.testing.assert_allclose(out, expected(X), rtol=1e-6)
    del out


def test_held_view_blocks_invoke_allocate_resize():
    it = ready()
    it.set_tensor(0, X)
    v = it.tensor(0)()
    for call in (it.invoke, it.allocate_tensors, lambda: it.resize_tensor_input(0, [2, 4])):
        with pytest.raises(RuntimeError, match=HELD):
            call()
    # set_tensor / get_tensor / reset_all_variables still work while the view is held.
    it.set_tensor(0, X * 2)
    np.testing.assert_array_equal(it.get_tensor(0), X * 2)
    np.testing.assert_array_equal(v, X * 2)  # the view sees set_tensor's data
    it.reset_all_variables()
    s = v[0, 1:]  # a slice keeps blocking after the view itself is gone
    del v
    gc.collect()
    with pytest.raises(RuntimeError, match=HELD):
        it.invoke()
    del s
    gc.collect()
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(3), expected(X * 2), rtol=1e-6)
    # Holding the lambda itself is fine.
    f = it.tensor(3)
    it.invoke()
    del f


def test_held_output_view_message():
    it = ready()
    v = it.tensor(3)()
    with pytest.raises(RuntimeError) as e:
        it.invoke()
    assert str(e.value).startswith("There is at least 1 reference to internal data")
    del v


# --- set_tensor ------------------------------------------------------------------------


def test_set_tensor_wrong_dtype_message():
    it = ready()
    with pytest.raises(ValueError) as e:
        it.set_tensor(0, X.astype(np.float64))
    assert ("Cannot set tensor: Got value of type FLOAT64 but expected type FLOAT32 "
            "for input 0, name: x ") in str(e.value)
    with pytest.raises(ValueError, match="Got value of type INT32 but expected type FLOAT32"):
        it.set_tensor(0, X.astype(np.int32))
    # A Python list becomes float64 and is rejected (no casting).
    with pytest.raises(ValueError, match="Got value of type FLOAT64 but expected type FLOAT32"):
        it.set_tensor(0, [[1.0, 2.0, 3.0, 4.0]])


def test_set_tensor_shape_messages():
    it = ready()
    with pytest.raises(ValueError) as e:
        it.set_tensor(0, X[0])
    assert "Cannot set tensor: Dimension mismatch. Got 1 but expected 2 for input 0." in str(e.value)
    with pytest.raises(ValueError) as e:
        it.set_tensor(0, np.zeros((1, 5), np.float32))
    assert ("Cannot set tensor: Dimension mismatch. Got 5 but expected 4 for dimension 1 of input 0."
            in str(e.value))
    with pytest.raises(ValueError, match="Dimension mismatch. Got 0 but expected 2"):
        it.set_tensor(0, np.float32(1.0))


def test_set_get_bad_index():
    it = ready()
    for bad in (999, -1):
        with pytest.raises(ValueError, match="Invalid tensor index"):
            it.set_tensor(bad, X)
        with pytest.raises(ValueError, match="Invalid tensor index"):
            it.get_tensor(bad)
    with pytest.raises(ValueError, match="^Invalid tensor index 999 exceeds max tensor index"):
        it.get_tensor(999)
    with pytest.raises(ValueError, match="Invalid tensor index"):
        it.tensor(999)()
    with pytest.raises(ValueError, match="^Invalid tensor index 999 exceeds max tensor index"):
        it._get_tensor_details(999, 0)


def test_set_tensor_accepts_noncontiguous_and_any_tensor():
    it = ready()
    big = np.asfortranarray(np.arange(16, dtype=np.float32).reshape(4, 4))
    strided = big[1:2, :]  # non-contiguous view
    assert not strided.flags.c_contiguous
    it.set_tensor(np.int64(0), strided)
    np.testing.assert_array_equal(it.get_tensor(0), np.ascontiguousarray(strided))
    it.set_tensor(np.int32(3), X)  # an output tensor is settable too
    np.testing.assert_array_equal(it.get_tensor(3), X)
    it.set_tensor(0, X)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)


@pytest.mark.skipif(IS_LITERT, reason="tflite_fast internals")
def test_lean_round_trip_reads_numpy_abi_and_falls_back():
    """set_tensor/get_tensor read numpy's C ABI directly once the load-time probe
    agreed (with numpy 1.x and 2.x alike: CI runs both); arrays the fast path does
    not take (Fortran order, byte-swapped, other dtypes) behave as before."""
    from tflite_fast import _core

    it = ready()
    assert _core._np_abi_in_use()
    it.set_tensor(0, X)
    got = it.get_tensor(0)
    assert got.flags.c_contiguous and got.flags.writeable and got.flags.owndata
    np.testing.assert_array_equal(got, X)
    it.set_tensor(0, np.asfortranarray(X + 1))
    np.testing.assert_array_equal(it.get_tensor(0), X + 1)
    with pytest.raises(ValueError, match="Got value of type"):
        it.set_tensor(0, X.astype(">f4"))
    with pytest.raises(ValueError, match="Got value of type INT32"):
        it.set_tensor(0, X.astype(np.int32))
    assert it.get_tensor(0) is not it.get_tensor(0)


# --- resize_tensor_input ------------------------------------------------------------------


def test_resize_non_strict():
    it = ready()
    it.resize_tensor_input(0, [3, 4])
    d = it.get_input_details()[0]
    assert d["shape"].tolist() == [3, 4] and d["shape"].dtype == np.int32
    assert d["shape_signature"].tolist() == [-1, 4]
    with pytest.raises(RuntimeError, match="Invoke called on model that is not ready."):
        it.invoke()
    it.allocate_tensors()
    x3 = np.arange(12, dtype=np.float32).reshape(3, 4)
    it.set_tensor(0, x3)
    it.invoke()
    out = it.get_tensor(3)
    assert out.shape == (3, 4)
    np.testing.assert_allclose(out, expected(x3), rtol=1e-6)
    assert it.get_output_details()[0]["shape"].tolist() == [3, 4]


def test_resize_accepts_tuples_arrays_float_lists():
    it = ready()
    for size in ((2, 4), np.array([5, 4]), [2.0, 4.0]):
        it.resize_tensor_input(0, size)
        it.allocate_tensors()
        n = int(np.array(size)[0])
        it.set_tensor(0, np.ones((n, 4), np.float32))
        it.invoke()
        assert it.get_tensor(3).shape == (n, 4)


def test_resize_same_shape_is_noop():
    it = ready()
    it.resize_tensor_input(0, [1, 4])
    it.set_tensor(0, X)
    it.invoke()  # no allocate_tensors() needed
    np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)


def test_resize_fixed_dim_non_strict():
    it = ready(tiny_model(dynamic=False))
    assert it.get_input_details()[0]["shape_signature"].tolist() == [1, 4]
    it.resize_tensor_input(0, [2, 4])
    it.allocate_tensors()
    x2 = np.stack([X[0], -X[0]])
    it.set_tensor(0, x2)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(3), expected(x2), rtol=1e-6)


def test_resize_strict():
    it = ready()
    with pytest.raises(RuntimeError) as e:
        it.resize_tensor_input(0, [1, 5], strict=True)
    assert ("Attempting to resize dimension 1 of tensor 0 with value 4 to 5. "
            "ResizeInputTensorStrict only allows mutating unknown dimensions identified by -1."
            in str(e.value))
    it.resize_tensor_input(0, [2, 4], strict=True)  # the -1 dim may change
    it.allocate_tensors()
    it.set_tensor(0, np.zeros((2, 4), np.float32))
    it.invoke()
    assert it.get_tensor(3).shape == (2, 4)
    it2 = ready(tiny_model(dynamic=False))
    with pytest.raises(RuntimeError, match="ResizeInputTensorStrict only allows mutating"):
        it2.resize_tensor_input(0, [2, 4], strict=True)


def test_resize_bad_index():
    it = ready()
    with pytest.raises(RuntimeError):
        it.resize_tensor_input(999, [1, 4])


# --- signatures (§2) ----------------------------------------------------------------------


def test_signature_lists():
    it = make()
    assert it.get_signature_list() == {"serving_default": {"inputs": ["a"], "outputs": ["out"]}}
    assert it._get_full_signature_list() == {
        "serving_default": {"inputs": {"a": 0}, "outputs": {"out": 3}}}
    assert make(tiny_model(signatures=())).get_signature_list() == {}


def test_signature_runner_basics():
    it = make()
    runner = it.get_signature_runner()  # no allocate_tensors() needed
    assert isinstance(runner, tfl.SignatureRunner)
    res = runner(a=X)
    assert list(res) == ["out"]
    assert res["out"].flags.owndata
    np.testing.assert_allclose(res["out"], expected(X), rtol=1e-6)
    x3 = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(runner(a=x3)["out"], expected(x3), rtol=1e-6)  # resizes per call
    assert list(runner.get_input_details()) == ["a"]
    assert runner.get_input_details()["a"]["index"] == 0
    assert runner.get_input_details()["a"]["name"] == "x"
    assert list(runner.get_output_details()) == ["out"]
    assert runner.get_output_details()["out"]["index"] == 3
    named = it.get_signature_runner("serving_default")
    np.testing.assert_allclose(named(a=X)["out"], expected(X), rtol=1e-6)


def test_signature_runner_errors():
    it = make()
    runner = it.get_signature_runner("serving_default")
    with pytest.raises(ValueError, match="^Invalid number of inputs provided for running a "
                                         "SignatureDef, expected 1 vs provided 0$"):
        runner()
    with pytest.raises(ValueError, match="^Invalid Input name \\(b\\) for SignatureDef$"):
        runner(b=X)
    with pytest.raises(TypeError):
        runner(X)
    with pytest.raises(ValueError, match="Got value of type FLOAT64 but expected type FLOAT32"):
        runner(a=X.astype(np.float64))
    np.testing.assert_allclose(runner(a=X)["out"], expected(X), rtol=1e-6)  # not poisoned
    with pytest.raises(ValueError, match='^Invalid signature_key provided: "nope".$'):
        it.get_signature_runner("nope")
    with pytest.raises(ValueError, match="^None interpreter provided.$"):
        tfl.SignatureRunner(None, "serving_default")
    with pytest.raises(ValueError, match="^None signature_key provided.$"):
        tfl.SignatureRunner(it, None)


@pytest.mark.parametrize("keys", [(), ("one", "two")])
def test_signature_runner_none_key(keys):
    it = make(tiny_model(signatures=keys))
    with pytest.raises(ValueError) as e:
        it.get_signature_runner()
    assert str(e.value) == (f"SignatureDef signature_key is None and model has {len(keys)} "
                            "Signatures. None is only allowed when the model has 1 SignatureDef")
    if keys:
        np.testing.assert_allclose(it.get_signature_runner("two")(a=X)["out"], expected(X), rtol=1e-6)


@pytest.mark.parametrize("batch", [1, 2])
def test_signature_runner_real_model(batch):
    """kws_dscnn_float (signature 'serving_default', dynamic batch): the runner resizes,
    allocates and invokes; its outputs equal LiteRT's runner's."""
    model = shared("kws_dscnn_float").read_bytes()
    x = np.random.default_rng(batch).standard_normal((batch, 49, 10, 1)).astype(np.float32)
    got = make(model).get_signature_runner()(keras_tensor_11=x)
    ref = litert.Interpreter(model_content=model).get_signature_runner()(keras_tensor_11=x)
    assert list(got) == list(ref) == ["output_0"]
    oracle.assert_outputs_match([got["output_0"]], [ref["output_0"]], context=f"batch {batch}")


def test_live_signature_runner_and_invoke():
    it = ready()
    runner = it.get_signature_runner()
    it.set_tensor(0, X)
    if IS_LITERT:
        # LiteRT's refcount guard counts the runner's reference to the wrapper (api.md §1.6).
        with pytest.raises(RuntimeError, match=HELD):
            it.invoke()
    else:
        # Deliberate difference: tflite_fast counts exported views only, so a live runner
        # does not block invoke()/allocate_tensors()/resize_tensor_input().
        it.invoke()
        np.testing.assert_allclose(it.get_tensor(3), expected(X), rtol=1e-6)
        it.allocate_tensors()
        it.resize_tensor_input(0, [1, 4])
    del runner


def test_signature_runner_shares_state_okay_nabu():
    """Resource variables carry across runner calls exactly as across invoke() calls."""
    model = shared("okay_nabu").read_bytes()
    a = make(model)
    b = make(model)
    try:
        b.allocate_tensors()
    except RuntimeError as e:
        pytest.xfail(f"okay_nabu does not allocate yet: {str(e)[:200]}")
    runner = a.get_signature_runner()
    assert a.get_signature_list() == {"serving_default": {"inputs": ["input_audio"],
                                                          "outputs": ["dense_1"]}}
    rng = np.random.default_rng(1)
    d = b.get_input_details()[0]
    out_index = b.get_output_details()[0]["index"]
    for step in range(6):
        x = rng.integers(-128, 128, size=tuple(d["shape"]), dtype=np.int8)
        got = runner(input_audio=x)["dense_1"]
        b.set_tensor(d["index"], x)
        b.invoke()
        np.testing.assert_array_equal(got, b.get_tensor(out_index), err_msg=f"step {step}")


def test_reset_all_variables_legacy_variable():
    it = ready(tiny_model(variable=True))
    assert it.reset_all_variables() is None
    v = 4  # the is_variable tensor
    it.set_tensor(v, np.full((1, 4), 10.0, np.float32))
    it.set_tensor(0, X)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(5), expected(X) + 10.0, rtol=1e-6)
    it.reset_all_variables()
    np.testing.assert_array_equal(it.get_tensor(v), np.zeros((1, 4), np.float32))
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(5), expected(X), rtol=1e-6)


# --- ops details, subgraphs -------------------------------------------------------------


OPS_MODELS = ["small_cnn_int8", "kws_dscnn_float", "face_detection_short_range", "okay_nabu",
              "lstm_text_float", "mobilenet_v3_small_int8"]


@pytest.mark.parametrize("name", OPS_MODELS)
def test_ops_details_match_litert(name):
    """Compared with LiteRT's BUILTIN_WITHOUT_DEFAULT_DELEGATES: with AUTO, allocation adds
    one DELEGATE node per XNNPACK partition."""
    model = shared(name).read_bytes()
    ref = oracle.make_interpreter(litert, model, "builtin")
    ours = oracle.make_interpreter(tfl, model, "builtin")
    oracle.assert_same(ours._get_ops_details(), ref._get_ops_details(), f"{name} before allocate")
    n = len(ref._get_ops_details())
    oracle.assert_same(ours._get_op_details(n - 1), ref._get_op_details(n - 1), f"{name} last op")
    for bad in (n, -1, 10**6):
        with pytest.raises(ValueError, match="^Invalid node index$"):
            ours._get_op_details(bad)
    ref.allocate_tensors()
    try:
        ours.allocate_tensors()
    except RuntimeError as e:
        pytest.xfail(f"{name} does not allocate yet: {str(e)[:300]}")
    got = ours._get_ops_details()
    if not IS_LITERT:
        # Deliberate extension (tflite_fast/interpreter.py): after allocation an op whose
        # prepare chose a microkernel has a trailing 'kernel' key naming it. Everything
        # else must equal LiteRT's.
        for d in got:
            kernel = d.pop("kernel", None)
            assert kernel is None or (isinstance(kernel, str) and kernel), d
    oracle.assert_same(got, ref._get_ops_details(), f"{name} after allocate")


@pytest.mark.parametrize("name,count", [("okay_nabu", 2), ("lstm_text_float", 5),
                                        ("small_cnn_int8", 1)])
def test_num_subgraphs(name, count):
    assert make(shared(name).read_bytes()).num_subgraphs() == count


def test_subgraph_index_errors():
    it = make(shared("okay_nabu").read_bytes())
    with pytest.raises(ValueError, match="^subgraph_index is out of range: 5 for the model, "
                                         "which has 2 subgraphs.$"):
        it.get_tensor_details(5)
    with pytest.raises(ValueError, match="^Invalid subgraph index 3 exceeds max subgraph index"):
        it.get_tensor(0, 3)
    assert len(it.get_tensor_details(1)) > 0


# --- threading ---------------------------------------------------------------------------


def test_invoke_releases_gil():
    """A Python ticker thread keeps running while invoke() runs mobilenet_v2_float in
    reference mode, batched so that one invoke takes ~0.3 s."""
    it = oracle.make_interpreter(tfl, shared("mobilenet_v2_float").read_bytes(), "ref")
    it.allocate_tensors()
    d = it.get_input_details()[0]
    t = time.perf_counter()
    it.invoke()
    batch = int(min(16, max(1, np.ceil(0.3 / (time.perf_counter() - t)))))
    it.resize_tensor_input(d["index"], [batch, 224, 224, 3])
    it.allocate_tensors()
    rng = np.random.default_rng(0)
    it.set_tensor(d["index"], rng.standard_normal((batch, 224, 224, 3)).astype(np.float32))
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    th = threading.Thread(target=ticker)
    th.start()
    time.sleep(0.02)
    t0 = time.perf_counter()
    it.invoke()
    t1 = time.perf_counter()
    stop.set()
    th.join()
    during = [t for t in ticks if t0 <= t <= t1]
    assert t1 - t0 > 0.05, "invoke too short to observe the GIL"
    # With the GIL held for the whole C call the ticker could not run at all (at most one
    # tick slips in before the call starts). A few ticks, not a rate: the OS may schedule
    # the ticker rarely when the machine is busy.
    assert len(during) >= 3, f"only {len(during)} ticks during a {t1 - t0:.3f} s invoke"


# --- tflite_fast extensions ----------------------------------------------------------------


@pytest.mark.skipif(IS_LITERT, reason="tflite_fast extension, not in LiteRT")
def test_arena_bytes_and_memory_plan():
    it = ready(shared("small_cnn_int8").read_bytes())
    assert type(it.arena_bytes) is int and it.arena_bytes > 0
    plan = it.memory_plan()
    assert isinstance(plan, list) and plan
    for e in plan:
        assert {"offset", "size", "first_step", "last_step"} <= set(e), e
        assert all(type(e[k]) is int for k in ("offset", "size", "first_step", "last_step"))
