"""The `tflite-fast` command: run, bench, diff, inspect (called in-process
through tflite_fast.cli.main, plus one real console-script run)."""
import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import model_path
from model_builder import ModelBuilder
from tflite_fast import cli

try:
    import ai_edge_litert  # noqa: F401
    HAVE_LITERT = True
except ImportError:
    HAVE_LITERT = False

try:
    import tflite_runtime  # noqa: F401
    HAVE_TFLITE_RUNTIME = True
except ImportError:
    HAVE_TFLITE_RUNTIME = False

needs_litert = pytest.mark.skipif(not HAVE_LITERT, reason="ai_edge_litert not installed")


def run_cli(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def json_cli(capsys, *argv):
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def custom_op_model(tmp_path_factory):
    """RELU -> an unresolved custom op -> RELU: inspect must say which op is unsupported."""
    b = ModelBuilder()
    x = b.tensor("x", [1, 8], np.float32)
    h = b.tensor("h", [1, 8], np.float32)
    g = b.tensor("g", [1, 8], np.float32)
    y = b.tensor("y", [1, 8], np.float32)
    b.op("RELU", [x], [h])
    b.op(None, [h], [g], custom_code="TffTestUnknownOp")
    b.op("RELU", [g], [y])
    b.inputs([x])
    b.outputs([y])
    p = tmp_path_factory.mktemp("models") / "custom.tflite"
    p.write_bytes(b.build())
    return p


# ---- run --------------------------------------------------------------------------

def test_run_bundled(capsys):
    code, out, _ = run_cli(capsys, "run", "--num_runs", 3)
    assert code == 0
    assert "numerics: default, threads: 1, arena:" in out
    assert "invoke (set_tensor + invoke + get_tensor) over 3 runs: median" in out
    assert out.count("output ") >= 1


def test_console_script():
    """`python -m tflite_fast.cli` (what the tflite-fast script calls)."""
    r = subprocess.run([sys.executable, "-m", "tflite_fast.cli", "run", "--num_runs", "2", "--reference"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "numerics: reference" in r.stdout


def test_missing_model(capsys, tmp_path):
    code, _, err = run_cli(capsys, "bench", tmp_path / "nope.tflite")
    assert code == 1 and "tflite-fast: error:" in err


# ---- bench ------------------------------------------------------------------------

def test_bench_json(capsys):
    r = json_cli(capsys, "bench", model_path("small_cnn_int8"), "--num_runs", 7, "--warmup_runs", 2)
    assert r["num_runs"] == 7 and r["warmup_runs"] == 2 and r["numerics"] == "default"
    ours = r["runtimes"]["tflite_fast"]
    s = ours["round_trip_ms"]
    assert s["count"] == 7
    assert 0 < s["min"] <= s["median"] <= s["p90"] and s["std"] >= 0 and s["mean"] >= s["min"]
    assert ours["init_ms"] > 0 and ours["first_run_ms"] > 0
    assert ours["arena_bytes"] > 0
    assert r["rss_bytes"] is None or r["rss_bytes"] > 0
    assert "op_profile" not in r


def test_bench_text_and_progress(capsys):
    code, out, err = run_cli(capsys, "bench", model_path("seed_dense_int8"), "--num_runs", 5,
                             "--progress", "always")
    assert code == 0
    for word in ("init", "first", "min", "median", "mean", "p90", "std", "arena:", "RSS:"):
        assert word in out
    assert "5/5" in err and "[" in err


def test_bench_op_profiling(capsys):
    r = json_cli(capsys, "bench", model_path("small_cnn_int8"), "--num_runs", 6, "--enable_op_profiling")
    rows = r["op_profile"]
    assert {row["op"] for row in rows} >= {"CONV_2D", "FULLY_CONNECTED", "SOFTMAX"}
    assert all(row["count"] == 6 for row in rows)  # the timed runs only
    assert abs(sum(row["share"] for row in rows) - 1.0) < 1e-9
    assert [row["total_ns"] for row in rows] == sorted((row["total_ns"] for row in rows), reverse=True)
    code, out, _ = run_cli(capsys, "bench", model_path("small_cnn_int8"), "--num_runs", 3,
                           "--enable_op_profiling")
    assert code == 0 and "per-op profile" in out and "by op type" in out


@needs_litert
def test_bench_compare(capsys):
    r = json_cli(capsys, "bench", model_path("seed_dense_float"), "--num_runs", 6,
                 "--compare", "ai_edge_litert")
    assert set(r["runtimes"]) == {"tflite_fast", "ai_edge_litert"}
    assert r["runtimes"]["ai_edge_litert"]["round_trip_ms"]["count"] == 6
    assert r["speedup"] > 0


@pytest.mark.skipif(HAVE_TFLITE_RUNTIME, reason="tflite_runtime is installed")
def test_bench_compare_missing_runtime(capsys):
    code, _, err = run_cli(capsys, "bench", model_path("seed_dense_float"), "--compare", "tflite_runtime")
    assert code == 1 and "not installed" in err


def test_bench_bad_args(capsys):
    code, _, err = run_cli(capsys, "bench", model_path("seed_dense_float"), "--num_runs", 0)
    assert code == 1 and "--num_runs" in err


# ---- diff -------------------------------------------------------------------------

def test_diff_against_reference_int8(capsys):
    r = json_cli(capsys, "diff", model_path("small_cnn_int8"), "--against", "reference", "--num_runs", 4)
    (out,) = r["outputs"]
    assert out["dtype"] == "int8"
    assert out["elements"] == 4 * 10
    assert 0 <= out["differing"] <= out["elements"]
    assert out["differing_share"] == out["differing"] / out["elements"]
    assert out["max_abs_diff"] <= 2  # the two numerics differ by at most an LSB or so
    assert r["passed"] is True and r["tolerance"] is None


@needs_litert
def test_diff_against_litert_float(capsys):
    r = json_cli(capsys, "diff", model_path("small_cnn_float"), "--against", "ai_edge_litert",
                 "--num_runs", 3, "--tolerance", 1e-4)
    (out,) = r["outputs"]
    assert "differing" not in out  # float output: no element count
    assert out["max_abs_diff"] <= 1e-4 and r["passed"]


@needs_litert
def test_diff_against_litert_int8_reference(capsys):
    """BUILTIN_REF on both sides: integer outputs are bit-exact."""
    r = json_cli(capsys, "diff", model_path("small_cnn_int8"), "--against", "ai_edge_litert",
                 "--reference", "--num_runs", 3, "--tolerance", 0)
    assert r["outputs"][0]["differing"] == 0 and r["passed"]


def test_diff_tolerance_exit_status(capsys):
    # No difference can be <= -1: the check fails, the exit status is 1.
    code, out, _ = run_cli(capsys, "diff", model_path("seed_dense_float"), "--against", "reference",
                           "--num_runs", 2, "--tolerance", -1)
    assert code == 1 and "FAILED" in out
    code, out, _ = run_cli(capsys, "diff", model_path("seed_dense_float"), "--against", "reference",
                           "--num_runs", 2, "--tolerance", 1e-3)
    assert code == 0 and "passed" in out


def test_diff_stats_math():
    s = cli._DiffStats("o", np.int8)
    s.add(np.array([1, 2, 3, 4], np.int8), np.array([1, 2, 3, 6], np.int8))
    s.add(np.array([1, 2, 3, 4], np.int8), np.array([1, 2, 3, 4], np.int8))
    r = s.report()
    assert r["max_abs_diff"] == 2 and r["differing"] == 1 and r["elements"] == 8
    assert r["mean_abs_diff"] == pytest.approx(0.25) and r["std_abs_diff"] == pytest.approx(0.25)
    f = cli._DiffStats("f", np.float32)
    f.add(np.array([np.nan, 1.0], np.float32), np.array([np.nan, 1.5], np.float32))
    assert f.report()["max_abs_diff"] == 0.5
    f.add(np.array([np.nan], np.float32).reshape(1, 1)[0], np.array([0.0], np.float32))
    assert f.report()["max_abs_diff"] == np.inf


# ---- inspect ----------------------------------------------------------------------

def test_inspect_text(capsys):
    code, out, _ = run_cli(capsys, "inspect", model_path("small_cnn_int8"))
    assert code == 0
    assert "inputs:" in out and "outputs:" in out and "scale=" in out
    assert "serving_default" in out
    assert "CONV_2D" in out and "SOFTMAX" in out
    assert "arena:" in out and "offset" in out
    assert "min_runtime_version=" in out
    assert "metadata: none" in out


def test_inspect_json(capsys):
    r = json_cli(capsys, "inspect", model_path("small_cnn_int8"))
    (inp,) = r["inputs"]
    assert inp["dtype"] == "int8" and inp["shape"] == [1, 28, 28, 1] and len(inp["scales"]) == 1
    assert r["signatures"][0]["key"] == "serving_default"
    sub = r["subgraphs"][0]
    assert all(op["supported"] == "yes" for op in sub["ops"])
    assert all(op["version"] >= 1 for op in sub["ops"])
    assert sub["arena_bytes"] > 0
    for e in sub["memory_plan"]:
        assert e["offset"] + e["size"] <= sub["arena_bytes"]


def test_inspect_multi_subgraph(capsys):
    r = json_cli(capsys, "inspect", model_path("okay_nabu"))
    assert len(r["subgraphs"]) == 2
    assert any(op["op"] == "CALL_ONCE" for op in r["subgraphs"][0]["ops"])


def test_inspect_unsupported_op(capsys, custom_op_model):
    r = json_cli(capsys, "inspect", custom_op_model)
    ops = r["subgraphs"][0]["ops"]
    assert [op["op"] for op in ops] == ["RELU", "TffTestUnknownOp", "RELU"]
    assert [op["supported"] for op in ops] == ["yes", "no", "yes"]
    assert "memory_plan" not in r["subgraphs"][0]
    code, out, _ = run_cli(capsys, "inspect", custom_op_model)
    assert code == 0 and "not planned" in out


def test_inspect_dot(capsys, tmp_path, custom_op_model):
    dot = tmp_path / "g.dot"
    code, out, _ = run_cli(capsys, "inspect", model_path("small_cnn_int8"), "--dot", dot)
    assert code == 0
    text = dot.read_text()
    assert text.startswith("digraph tflite {") and "CONV_2D v3" in text and "->" in text
    if shutil.which("dot"):
        svg = tmp_path / "g.svg"
        assert svg.exists() and "<svg" in svg.read_text()
    code, _, _ = run_cli(capsys, "inspect", custom_op_model, "--dot", tmp_path / "c.svg")
    assert code == 0 and 'fillcolor="#f4b6b6"' in (tmp_path / "c.dot").read_text()


def test_inspect_metadata(capsys, tmp_path):
    from test_metadata import LABELS, classifier_metadata, pack_files, tiny_model

    p = tmp_path / "meta.tflite"
    p.write_bytes(pack_files(tiny_model(classifier_metadata()), {"labels.txt": LABELS}))
    code, out, _ = run_cli(capsys, "inspect", p)
    assert code == 0
    assert "Tiny classifier" in out and "Apache-2.0" in out
    assert "normalization mean=[127.5] std=[127.5]" in out
    assert "labels.txt" in out
    r = json_cli(capsys, "inspect", p)
    assert r["metadata"]["packed_files"] == ["labels.txt"]
    assert r["metadata"]["inputs"][0]["normalization"] == [[127.5], [127.5]]


# ---- inspect --delegate (the C fixture delegate of test_delegate.py) --------------

@pytest.fixture(scope="module")
def delegate_lib(tmp_path_factory):
    from test_delegate import CC, build
    if CC is None:
        pytest.skip("no C compiler")
    return build(tmp_path_factory)


@pytest.fixture(scope="module")
def g1_path(tmp_path_factory):
    """delegate-abi.md §4.4's G1 (ADD MUL SUB ADD MUL SUB)."""
    from test_delegate import G1
    p = tmp_path_factory.mktemp("models") / "g1.tflite"
    p.write_bytes(G1)
    return p


def test_delegate_spec():
    assert cli._delegate_spec("lib.so") == ("lib.so", {})
    assert cli._delegate_spec("lib.so:ops=0,18,preview=1") == ("lib.so", {"ops": "0,18", "preview": "1"})
    with pytest.raises(ValueError, match="k=v pairs"):
        cli._delegate_spec("lib.so:0,18")


def test_inspect_delegate_partitions(capsys, delegate_lib, g1_path):
    """doc §4.4: claiming ADD+MUL gives [0,1,4] -> node 6 and [3] -> node 7."""
    r = json_cli(capsys, "inspect", g1_path, "--delegate", "%s:ops=0,18" % delegate_lib)
    sub = r["subgraphs"][0]
    assert sub["partitions"] == [
        {"node": 6, "delegate": 0, "nodes": [0, 1, 4], "inputs": [0, 1], "outputs": [2, 3, 6]},
        {"node": 7, "delegate": 0, "nodes": [3], "inputs": [2, 4], "outputs": [5]}]
    assert [o["delegated_to"] for o in sub["ops"]] == [6, 6, None, 7, 6, None, None, None]
    assert [o["op"] for o in sub["ops"][6:]] == ["DELEGATE", "DELEGATE"]
    code, out, _ = run_cli(capsys, "inspect", g1_path, "--delegate", "%s:ops=0,18" % delegate_lib)
    assert code == 0
    assert "node 6 (delegate 0: %s:ops=0,18) replaces nodes [0, 1, 4]: inputs [0, 1] -> outputs [2, 3, 6]" \
        % delegate_lib in out
    assert "node 7 (delegate 0: %s:ops=0,18) replaces nodes [3]: inputs [2, 4] -> outputs [5]" % delegate_lib in out
    assert "left to tflite_fast: nodes [2, 5]" in out


def test_inspect_two_delegates(capsys, delegate_lib, g1_path):
    """Applied in order: ADD to the first ([0] [3]), then MUL to the second ([1,4])."""
    r = json_cli(capsys, "inspect", g1_path, "--delegate", "%s:ops=0" % delegate_lib,
                 "--delegate", "%s:ops=18" % delegate_lib)
    parts = [(p["node"], p["delegate"], p["nodes"]) for p in r["subgraphs"][0]["partitions"]]
    assert parts == [(6, 0, [0]), (7, 0, [3]), (8, 1, [1, 4])]


def test_inspect_without_delegate_has_no_partitions(capsys, g1_path):
    r = json_cli(capsys, "inspect", g1_path)
    assert r["delegates"] == [] and r["subgraphs"][0]["partitions"] == []
    code, out, _ = run_cli(capsys, "inspect", g1_path)
    assert "partitions" not in out


def test_inspect_delegate_dot(capsys, tmp_path, delegate_lib, g1_path):
    dot = tmp_path / "g1.dot"
    code, _, _ = run_cli(capsys, "inspect", g1_path, "--delegate", "%s:ops=0,18" % delegate_lib, "--dot", dot)
    assert code == 0
    text = dot.read_text()
    assert "subgraph cluster_d6 {" in text and "n0; n1; n4; }" in text
    assert "subgraph cluster_d7 {" in text and "fillcolor=\"#d8e8f8\"; n3; }" in text
    assert "n6 [" not in text and "n7 [" not in text  # the clusters stand for the delegate nodes
    assert "n4 -> n5" in text  # edges between the original nodes remain


def test_inspect_delegate_failures(capsys, delegate_lib, g1_path, tmp_path):
    code, _, err = run_cli(capsys, "inspect", g1_path, "--delegate", "%s:ops=0,fail=prepare" % delegate_lib)
    assert code == 1 and "test_delegate: prepare failure requested" in err
    code, _, err = run_cli(capsys, "inspect", g1_path, "--delegate", tmp_path / "libmissing.so")
    assert code == 1 and "libmissing.so" in err
