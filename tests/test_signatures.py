"""Models with several signatures, each on its own subgraph, against ai_edge_litert.

Every answer of the signature API is compared with the oracle's for the same model:
get_signature_list() and _get_full_signature_list() (names and order), runners called
with keyword inputs returning dicts, the runners' get_input_details()/get_output_details(),
and get_tensor(index, subgraph_index) on the signatures' subgraphs after they ran.
"""

import numpy as np
import pytest

import oracle
from model_builder import ModelBuilder


def multi_signature_model(in_file_order=True):
    """Three subgraphs and four signatures:
    'arith'  (subgraph 0): z_in, a_in -> sum = z + a, prod = z * a  (names out of order),
    'scale'  (subgraph 1): x [-1, 4] -> y = 3 * x                    (dynamic batch),
    'clip'   (subgraph 2): q int8 -> r = relu(q)                      (quantized),
    'scale2' (subgraph 1 again): the same subgraph under other names."""
    b = ModelBuilder()
    z = b.tensor("z", [2, 3], np.float32)
    a = b.tensor("a", [2, 3], np.float32)
    s = b.tensor("s", [2, 3], np.float32)
    p = b.tensor("p", [2, 3], np.float32)
    b.op("ADD", [z, a], [s])
    b.op("MUL", [z, a], [p])
    b.inputs([z, a])
    b.outputs([s, p])

    b.new_subgraph("scale_graph")
    x = b.tensor("x", [1, 4], np.float32, shape_signature=[-1, 4])
    three = b.const("three", np.full([1], 3.0, np.float32))
    y = b.tensor("y", [1, 4], np.float32, shape_signature=[-1, 4])
    b.op("MUL", [x, three], [y])
    b.inputs([x])
    b.outputs([y])

    b.new_subgraph("clip_graph")
    q = b.tensor("q", [3], np.int8, scale=0.5, zero_point=-4)
    r = b.tensor("r", [3], np.int8, scale=0.5, zero_point=-4)
    b.op("RELU", [q], [r])
    b.inputs([q])
    b.outputs([r])

    arith_inputs = {"z_in": z, "a_in": a} if in_file_order else {"a_in": a, "z_in": z}
    b.signature("arith", arith_inputs, {"sum": s, "prod": p}, subgraph_index=0)
    b.signature("scale", {"x": x}, {"y": y}, subgraph_index=1)
    b.signature("clip", {"q": q}, {"r": r}, subgraph_index=2)
    b.signature("scale2", {"input": x}, {"output": y}, subgraph_index=1)
    return b.build()


RNG = np.random.default_rng(3)
CALLS = {
    "arith": dict(z_in=RNG.standard_normal([2, 3]).astype(np.float32),
                  a_in=RNG.standard_normal([2, 3]).astype(np.float32)),
    "scale": dict(x=RNG.standard_normal([3, 4]).astype(np.float32)),  # batch 3, resized
    "clip": dict(q=np.array([-128, -4, 100], np.int8)),
    "scale2": dict(input=RNG.standard_normal([2, 4]).astype(np.float32)),
}


def both(model, mode="default"):
    return [oracle.make_interpreter(m, model, mode)
            for m in (oracle.ours_module(), oracle.oracle_module())]


def assert_details_equal(ours, ref):
    """Two details dicts (get_input_details()/get_output_details() of a runner)."""
    assert list(ours) == list(ref)
    for name in ref:
        o, r = ours[name], ref[name]
        assert set(o) == set(r), name
        for k in r:
            if k == "quantization_parameters":
                for q in r[k]:
                    np.testing.assert_array_equal(o[k][q], r[k][q], err_msg=f"{name} {q}")
            elif isinstance(r[k], np.ndarray):
                np.testing.assert_array_equal(o[k], r[k], err_msg=f"{name} {k}")
            else:
                assert o[k] == r[k], (name, k, o[k], r[k])


@pytest.mark.parametrize("in_file_order", [True, False])
def test_signature_lists(in_file_order):
    ours, ref = both(multi_signature_model(in_file_order))
    assert ours.get_signature_list() == ref.get_signature_list()
    assert list(ours.get_signature_list()) == list(ref.get_signature_list())
    for key, sig in ref.get_signature_list().items():
        assert ours.get_signature_list()[key]["inputs"] == sig["inputs"], key
        assert ours.get_signature_list()[key]["outputs"] == sig["outputs"], key
    assert ours._get_full_signature_list() == ref._get_full_signature_list()


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("in_file_order", [True, False])
def test_runners(mode, in_file_order):
    """Each signature runs on its own subgraph, in any order and repeatedly; the outputs,
    the details before and after running, and the tensors read back by subgraph index
    match the oracle's."""
    ours, ref = both(multi_signature_model(in_file_order), mode)
    for key in ["scale", "arith", "clip", "scale2", "arith", "scale"]:
        r_ours, r_ref = ours.get_signature_runner(key), ref.get_signature_runner(key)
        assert_details_equal(r_ours.get_input_details(), r_ref.get_input_details())
        assert_details_equal(r_ours.get_output_details(), r_ref.get_output_details())
        out_ours, out_ref = r_ours(**CALLS[key]), r_ref(**CALLS[key])
        assert list(out_ours) == list(out_ref)
        oracle.assert_outputs_match(list(out_ours.values()), list(out_ref.values()),
                                    context=f"signature {key}")
        assert_details_equal(r_ours.get_input_details(), r_ref.get_input_details())
        assert_details_equal(r_ours.get_output_details(), r_ref.get_output_details())
        for name, d in r_ref.get_output_details().items():
            sg = r_ref._subgraph_index
            oracle.assert_outputs_match([ours.get_tensor(d["index"], sg)],
                                        [ref.get_tensor(d["index"], sg)],
                                        context=f"get_tensor({d['index']}, {sg}) of {key}")


def test_subgraph_tensor_details():
    ours, ref = both(multi_signature_model())
    assert ours.num_subgraphs() == ref.num_subgraphs() == 3
    for sg in range(3):
        o = {d["index"]: d for d in ours.get_tensor_details(sg)}
        r = {d["index"]: d for d in ref.get_tensor_details(sg)}
        assert sorted(o) == sorted(r)
        assert_details_equal({i: o[i] for i in sorted(o)}, {i: r[i] for i in sorted(r)})


def test_primary_subgraph_untouched():
    """Running other signatures leaves the primary subgraph's plain API working."""
    ours, ref = both(multi_signature_model())
    for it in (ours, ref):
        it.get_signature_runner("scale")(**CALLS["scale"])
        it.allocate_tensors()
        for d, x in zip(it.get_input_details(), CALLS["arith"].values()):
            it.set_tensor(d["index"], x)
        it.invoke()
    oracle.assert_outputs_match([ours.get_tensor(d["index"]) for d in ours.get_output_details()],
                                [ref.get_tensor(d["index"]) for d in ref.get_output_details()])


def test_runner_errors_match():
    ours, ref = both(multi_signature_model())
    cases = [
        lambda it: it.get_signature_runner(),
        lambda it: it.get_signature_runner("missing"),
        lambda it: it.get_signature_runner("arith")(z_in=CALLS["arith"]["z_in"]),
        lambda it: it.get_signature_runner("arith")(z_in=CALLS["arith"]["z_in"], b_in=1),
        lambda it: it.get_tensor(0, 7),
        lambda it: it.get_signature_runner("clip")(q=np.array([1, 2, 3], np.float32)),
        lambda it: it.get_signature_runner("arith")(z_in=np.zeros((2, 3), np.float64),
                                                    a_in=np.zeros((2, 3), np.float32)),
    ]
    for case in cases:
        errors = []
        for it in (ours, ref):
            with pytest.raises(ValueError) as e:
                case(it)
            errors.append(str(e.value))
        assert errors[0] == errors[1]


@pytest.mark.parametrize("mode", oracle.MODES)
def test_failed_prepare_then_recover(mode):
    """Shapes that ADD cannot broadcast fail at prepare (RuntimeError, messages differ:
    XNNPACK's in default mode); the next valid call on that signature, and another
    signature, run as the oracle's do."""
    ours, ref = both(multi_signature_model(), mode)
    results = []
    for it in (ours, ref):
        with pytest.raises(RuntimeError):
            it.get_signature_runner("arith")(z_in=np.zeros((3, 3), np.float32),
                                             a_in=np.zeros((2, 3), np.float32))
        arith = it.get_signature_runner("arith")(**CALLS["arith"])
        scale = it.get_signature_runner("scale")(**CALLS["scale"])
        results.append(list(arith.values()) + list(scale.values()))
    oracle.assert_outputs_match(results[0], results[1])
