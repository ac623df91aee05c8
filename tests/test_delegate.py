"""External delegates (docs/delegate-abi.md §2, §4): the fixture delegate
tests/delegate/test_delegate.c, built here with the system compiler against
tflite_fast's headers, runs under ai_edge_litert 2.3 (the oracle, without
its default XNNPACK delegate) and under tflite_fast. For the worked examples
of §4.4 both runtimes must hand the delegate the same partitions (kernel
init params, PreviewDelegatePartitioning), call it in the same order, give
the same _get_ops_details() and outputs, and fail with the same messages."""

import ctypes
import ctypes.util
import gc
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import oracle
from model_builder import ModelBuilder, S

import tflite_fast
import tflite_fast.interpreter as tff

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = shutil.which("gcc") or shutil.which("cc")
pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")

ADD, MUL, SUB = 0, 18, 41
A = np.array([[1, 2, 3, 4]], np.float32)
B = np.array([[5, 6, 7, -8]], np.float32)


def build(tmp_path_factory, *defines):
    """Builds the fixture delegate (with -D defines); returns its path."""
    inc = tflite_fast.get_include()
    if not os.path.isdir(inc):  # editable install: headers not copied
        inc = os.path.join(ROOT, "csrc", "include")
    out = str(tmp_path_factory.mktemp("delegate") / "libtest_delegate.so")
    subprocess.run([CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    "-fvisibility=hidden", "-I", inc, *["-D" + d for d in defines],
                    os.path.join(ROOT, "tests", "delegate", "test_delegate.c"), "-o", out], check=True)
    return out


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """Path of the built fixture delegate."""
    return build(tmp_path_factory)


@pytest.fixture(scope="module")
def log(lib):
    """(read, clear) of the fixture's event log."""
    return logger(lib)


def events(so, keep=("prepare", "preview", "init", "kprepare", "probe", "invoke", "copy", "free")):
    """The log's lines of the given kinds (create/destroy depend on GC timing)."""
    lines = so.test_delegate_log().decode().splitlines()
    return [line for line in lines if line.split(" ")[0] in keep]


def binary_graph(ops, inputs=2, consts=()):
    """Float [1,4] tensors t0..; ops = [(name, in0, in1, out)]; graph inputs
    t0..t{inputs-1}, constants listed in consts (index, values); output: the
    last op's output."""
    b = ModelBuilder()
    n = 1 + max(max(i0, i1, o) for _, i0, i1, o in ops)
    cvals = dict(consts)
    t = [b.const(f"c{i}", cvals[i]) if i in cvals else b.tensor(f"t{i}", [1, 4], np.float32)
         for i in range(n)]
    for name, i0, i1, o in ops:
        b.op(name, [t[i0], t[i1]], [t[o]])
    b.inputs([t[i] for i in range(inputs)])
    b.outputs([t[ops[-1][3]]])
    return b.build()


# doc §4.4
G1 = binary_graph([("ADD", 0, 1, 2), ("MUL", 2, 0, 3), ("SUB", 3, 1, 4), ("ADD", 4, 2, 5),
                   ("MUL", 0, 1, 6), ("SUB", 6, 5, 7)])
G4 = binary_graph([("ADD", 0, 1, 2), ("SUB", 2, 0, 3), ("ADD", 3, 1, 4), ("SUB", 0, 1, 5),
                   ("ADD", 5, 4, 6), ("ADD", 0, 1, 7), ("MUL", 7, 6, 8)])
CONST = binary_graph([("ADD", 0, 1, 2), ("ADD", 2, 1, 3)], inputs=1,
                     consts=[(1, np.array([[0.5, -1, 2, 3]], np.float32))])
MODELS = {"G1": (G1, [A, B]), "G4": (G4, [A, B]), "CONST": (CONST, [A])}

NO_DEFAULT = {"experimental_op_resolver_type": "BUILTIN_WITHOUT_DEFAULT_DELEGATES"}
MODES = {
    "greedy": {},
    "no_clustering": {"experimental_disable_delegate_clustering": True},
    "preserve_all": {"experimental_preserve_all_tensors": True},
    "no_fusion": {"experimental_disable_delegate_node_fusion": True},
}


def run(module, so, lib, model, inputs, options, **kw):
    """Everything observable: (log, ops details, outputs) or ('error', type, message)."""
    so.test_delegate_log_clear()
    kw = dict(kw)
    kw["experimental_op_resolver_type"] = module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    d = module.load_delegate(lib, options)
    try:
        it = module.Interpreter(model_content=model, experimental_delegates=[d], **kw)
        constructed = events(so)
        it.allocate_tensors()
        for detail, x in zip(it.get_input_details(), inputs):
            it.set_tensor(detail["index"], x)
        it.invoke()
        outs = [it.get_tensor(o["index"]) for o in it.get_output_details()]
        ops = [(o["index"], o["op_name"], list(map(int, o["inputs"])), list(map(int, o["outputs"])))
               for o in it._get_ops_details()]
        result = (constructed, events(so), ops, [o.tolist() for o in outs])
        del it
    except (RuntimeError, ValueError) as e:
        result = ("error", type(e).__name__, str(e), events(so))
    del d
    gc.collect()
    return result


def logger(path):
    so = ctypes.CDLL(path)
    so.test_delegate_log.restype = ctypes.c_char_p
    return so


def both(so, lib, name, options, **kw):
    model, inputs = MODELS[name]
    ref = run(oracle.oracle_module(), so, lib, model, inputs, options, **kw)
    ours = run(tff, so, lib, model, inputs, options, **kw)
    assert ours == ref
    return ours


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name,ops", [("G1", "0,18"), ("G1", "0,18,41"), ("G1", "41"),
                                      ("G4", "0"), ("CONST", "0"), ("G1", "")])
def test_partitions_match_litert(log, lib, name, ops, mode):
    both(log, lib, name, {"ops": ops, "preview": 1}, **MODES[mode])


def test_g1_worked_example(log, lib):
    """doc §4.4: partitions [0,1,4] and [3], plan [6,2,7,5], correct numbers."""
    constructed, _, ops, outs = both(log, lib, "G1", {"ops": "0,18"})
    assert "init length=0 nodes=0,1,4 inputs=0,1 outputs=2,3,6" in constructed
    assert "init length=0 nodes=3 inputs=2,4 outputs=5" in constructed
    assert ops[6:] == [(6, "DELEGATE", [0, 1], [2, 3, 6]), (7, "DELEGATE", [2, 4], [5])]
    a, b = A, B
    t2 = a + b
    t5 = (t2 * a - b) + t2
    np.testing.assert_array_equal(outs[0], (a * b - t5).tolist())


def test_g4_worked_example(log, lib):
    constructed = both(log, lib, "G4", {"ops": "0"})[0]
    assert [e for e in constructed if e.startswith("init")] == [
        "init length=0 nodes=0,5 inputs=0,1 outputs=2,7",
        "init length=0 nodes=2,4 inputs=1,3,5 outputs=6"]
    constructed = both(log, lib, "G4", {"ops": "0"}, experimental_disable_delegate_clustering=True)[0]
    assert [e.split(" ")[2] for e in constructed if e.startswith("init")] == [
        "nodes=0", "nodes=2", "nodes=4,5"]


def test_static_delegate_prepares_at_construction(log, lib):
    constructed, later = both(log, lib, "CONST", {"ops": "0"})[:2]
    assert constructed == ["prepare plan=0,1", "init length=0 nodes=0,1 inputs=0,1 outputs=3",
                           "kprepare"]
    assert later == constructed + ["invoke"]


def test_dynamic_delegate_prepares_at_allocate(log, lib):
    constructed, later = both(log, lib, "CONST", {"ops": "0", "dynamic": 1})[:2]
    assert "kprepare" not in constructed
    assert later == constructed + ["kprepare", "invoke"]


def test_internal_tensor_not_allocated(lib):
    """t2 of CONST lives only inside the partition: the runtime gives it no memory."""
    d = tff.load_delegate(lib, {"ops": "0"})
    it = tff.Interpreter(model_content=CONST, experimental_delegates=[d])
    it.allocate_tensors()
    plan = {e["tensor"] for e in it.memory_plan()}  # tflite_fast extension
    assert 2 not in plan and {0, 3} <= plan
    it.set_tensor(0, A)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(3), A + 2 * np.array([[0.5, -1, 2, 3]], np.float32))


FAILURES = {
    "prepare": "test_delegate: prepare failure requested"
               "Restored original execution plan after delegate application failure.",
    "init": "test_delegate: init failure requestedFailed to initialize kernel."
            "Restored original execution plan after delegate application failure.",
    "kprepare": "test_delegate: kprepare failure requestedNode number 6 (TestDelegate) failed to "
                "prepare.Restored original execution plan after delegate application failure.",
    "invoke": "test_delegate: invoke failure requestedNode number 6 (TestDelegate) failed to invoke.",
}


@pytest.mark.parametrize("stage", list(FAILURES))
def test_failure_messages(log, lib, stage):
    r = both(log, lib, "G1", {"ops": "0,18", "fail": stage})
    assert r[:3] == ("error", "RuntimeError", FAILURES[stage])


def test_failure_restores_plan(lib):
    """After a failed application nothing of the delegate stays (the error
    is raised, the model still runs on the CPU when built again)."""
    with pytest.raises(RuntimeError):
        tff.Interpreter(model_content=G1, experimental_delegates=[tff.load_delegate(lib, {"ops": "0", "fail": "kprepare"})])
    it = tff.Interpreter(model_content=G1)
    it.allocate_tensors()
    assert [o["op_name"] for o in it._get_ops_details()] == ["ADD", "MUL", "SUB", "ADD", "MUL", "SUB"]


def test_two_delegates(log, lib):
    """Applied in list order; the second sees the first's nodes in the plan."""
    for module in (oracle.oracle_module(), tff):
        log.test_delegate_log_clear()
        d1, d2 = module.load_delegate(lib, {"ops": "0"}), module.load_delegate(lib, {"ops": "18"})
        it = module.Interpreter(model_content=G1, experimental_delegates=[d1, d2],
                                experimental_op_resolver_type=module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        it.allocate_tensors()
        it.set_tensor(0, A)
        it.set_tensor(1, B)
        it.invoke()
        got = (events(log), [(o["index"], o["op_name"]) for o in it._get_ops_details()], it.get_tensor(7).tolist())
        if module is tff:
            assert got == ref
        ref = got
        del it, d1, d2
        gc.collect()


def run_resize(module, so, lib, options):
    """G1 run at [1,4], then both inputs resized to [2,4]: the events of each
    phase, the final ops details and outputs."""
    so.test_delegate_log_clear()
    d = module.load_delegate(lib, options)
    it = module.Interpreter(model_content=G1, experimental_delegates=[d],
                            experimental_op_resolver_type=module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    it.allocate_tensors()
    it.set_tensor(0, A)
    it.set_tensor(1, B)
    it.invoke()
    phases = [events(so)]
    for i in (0, 1):
        it.resize_tensor_input(i, [2, 4])
    phases.append(events(so))
    it.allocate_tensors()
    phases.append(events(so))
    it.set_tensor(0, np.concatenate([A, 2 * A]))
    it.set_tensor(1, np.concatenate([B, -B]))
    it.invoke()
    phases.append(events(so))
    ops = [(o["index"], o["op_name"], list(map(int, o["inputs"])), list(map(int, o["outputs"])))
           for o in it._get_ops_details()]
    out = it.get_tensor(it.get_output_details()[0]["index"])
    del it, d
    gc.collect()
    return phases, ops, out.shape, out.tolist()


@pytest.mark.parametrize("dynamic", [0, 1])
def test_resize(log, lib, dynamic):
    """Static delegate: the resize undoes it (kernels freed, original plan) and
    allocate re-applies it (Prepare and init again). Dynamic: nothing undone."""
    opts = {"ops": "0,18", "dynamic": dynamic}
    ref = run_resize(oracle.oracle_module(), log, lib, opts)
    ours = run_resize(tff, log, lib, opts)
    assert ours == ref
    assert ours[2] == (2, 4)
    assert ("free" in ours[0][1]) == (not dynamic)


@pytest.mark.parametrize("name,ops,copies", [
    ("G1", "0,18", ["copy 3", "copy 6", "copy 5"]),  # t2 is read by the delegate only
    ("G4", "0", ["copy 2", "copy 7", "copy 6"]),
    ("CONST", "0", ["copy 3"])])                     # the model output, after invoke
def test_copy_from_buffer_handle(log, lib, name, ops, copies):
    """Partition outputs kept behind buffer handles (stale): a CPU node
    reading one, and invoke for the model outputs, first call the delegate's
    CopyFromBufferHandle (doc §4.3); the delegate's own nodes do not."""
    _, later, _, outs = both(log, lib, name, {"ops": ops, "handles": 1})
    assert [e for e in later if e.startswith("copy")] == copies
    assert outs == both(log, lib, name, {"ops": ops})[3]


def test_copy_from_buffer_handle_fails(log, lib):
    """A failed copy for a CPU node's input fails the invoke with the
    delegate's message; one for a model output after the invoke is ignored
    (TFLite's Python Invoke drops that status; the output keeps stale data)."""
    r = both(log, lib, "G1", {"ops": "0,18", "handles": 1, "fail": "copy"})
    assert r[:3] == ("error", "RuntimeError", "test_delegate: copy failure requested")
    model, inputs = MODELS["CONST"]
    for module in (oracle.oracle_module(), tff):
        r = run(module, log, lib, model, inputs, {"ops": "0", "handles": 1, "fail": "copy"})
        assert r[0] != "error" and r[1][-1] == "copy 3"


def run_to_destroy(module, so, lib, options, resize=False):
    """G1 invoked at [1,4] (and, with resize, again at [2,4]); then the
    interpreter and the delegate are deleted. Returns the whole log after
    the invokes, the one of the interpreter's destruction, the delegate's."""
    so.test_delegate_log_clear()
    d = module.load_delegate(lib, options)
    it = module.Interpreter(model_content=G1, experimental_delegates=[d],
                            experimental_op_resolver_type=module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    shapes = [[1, 4], [2, 4]] if resize else [[1, 4]]
    errors = []
    for shape in shapes:
        for i in (0, 1):
            it.resize_tensor_input(i, shape)
        try:
            it.allocate_tensors()
        except RuntimeError:  # a failing re-apply: the retry runs on the CPU
            it.allocate_tensors()
        it.set_tensor(0, np.resize(A, shape))
        it.set_tensor(1, np.resize(B, shape))
        try:
            it.invoke()
        except RuntimeError as e:  # the last message (TFLite's accumulate: docs/api.md)
            errors.append(str(e).split("failure.")[-1])

    def take():
        lines = so.test_delegate_log().decode().splitlines()
        so.test_delegate_log_clear()
        return lines

    running = errors + take()
    del it
    gc.collect()
    destroyed = take()
    del d
    gc.collect()
    return running, destroyed, take()


@pytest.mark.parametrize("options,resize,freed", [
    # partition outputs 2,3,6 and 5 hold handles: freed in tensor order
    ({"ops": "0,18", "handles": 1, "freeh": 1}, False, [2, 3, 5, 6]),
    # undone at the resize without freeing; the re-applied kernels set them again
    ({"ops": "0,18", "handles": 1, "freeh": 1}, True, [2, 3, 5, 6]),
    # removed for good by a failing re-apply: the handles, owners and stale
    # flags stay until destroy, so the CPU's read of t2 (left stale, as only
    # the delegate read it) asks the freed kernels' handle and fails
    ({"ops": "0,18", "handles": 1, "freeh": 1, "fail": "prepare", "skip": 1}, True, [2, 3, 5, 6]),
    ({"ops": "41", "handles": 1, "freeh": 1}, False, [4, 7]),
    ({"ops": "0,18", "freeh": 1}, False, []),     # no handle set: nothing to free
    ({"ops": "0,18", "handles": 1}, False, []),   # handles but no FreeBufferHandle
])
def test_free_buffer_handle_at_destroy(log, lib, options, resize, freed):
    """TFLite's ~Subgraph: after the kernels are freed, every tensor still
    holding a buffer handle has its delegate's FreeBufferHandle called (when
    it has one); undoing a delegate frees none. Same events as LiteRT."""
    ref = run_to_destroy(oracle.oracle_module(), log, lib, options, resize)
    ours = run_to_destroy(tff, log, lib, options, resize)
    assert ours == ref
    running, destroyed, deleted = ours
    assert not any(e.startswith("freehandle") for e in running)
    if "fail" in options:
        assert running[0] == "test_delegate: bad buffer handle 2"
    assert [int(e.split()[1]) for e in destroyed if e.startswith("freehandle")] == freed
    kernels_freed = [i for i, e in enumerate(destroyed) if e == "free"]
    if freed and kernels_freed:
        assert destroyed.index(f"freehandle {freed[0]}") > max(kernels_freed)
    assert deleted == ["destroy delegate"]


def run_resize_failure(module, so, libs, options):
    """G1 with delegates (one per options dict) at [1,4], resized to [2,4]:
    the failing allocate's error, then a retry on the CPU."""
    so.test_delegate_log_clear()
    ds = [module.load_delegate(lib, o) for lib, o in zip(libs, options)]
    it = module.Interpreter(model_content=G1, experimental_delegates=ds,
                            experimental_op_resolver_type=module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    it.allocate_tensors()
    for i in (0, 1):
        it.resize_tensor_input(i, [2, 4])
    with pytest.raises(RuntimeError) as e:
        it.allocate_tensors()
    failed = (str(e.value), events(so))
    it.allocate_tensors()
    it.set_tensor(0, np.concatenate([A, 2 * A]))
    it.set_tensor(1, np.concatenate([B, -B]))
    it.invoke()
    ops = [(o["index"], o["op_name"]) for o in it._get_ops_details()]
    out = it.get_tensor(it.get_output_details()[0]["index"]).tolist()
    del it, ds
    gc.collect()
    return failed, events(so), ops, out


@pytest.mark.parametrize("stage,skip", [("prepare", 1), ("init", 2), ("kprepare", 2)])
def test_resize_reapply_fails(log, lib, stage, skip):
    """A static delegate that fails when re-applied after a resize: allocate
    raises with the reported messages, every delegate is removed and the
    model runs on the CPU with the original plan."""
    opts = [{"ops": "0,18", "fail": stage, "skip": skip}]
    ref = run_resize_failure(oracle.oracle_module(), log, [lib], opts)
    ours = run_resize_failure(tff, log, [lib], opts)
    assert ours == ref
    assert ours[0][0].endswith("Restored original execution plan after delegate application failure.")
    assert [name for _, name in ours[2]] == ["ADD", "MUL", "SUB", "ADD", "MUL", "SUB"]


def test_resize_reapply_second_delegate_fails(log, lib):
    """The second delegate fails on re-apply: the first is removed too."""
    opts = [{"ops": "0"}, {"ops": "18", "fail": "prepare", "skip": 1}]
    ref = run_resize_failure(oracle.oracle_module(), log, [lib, lib], opts)
    ours = run_resize_failure(tff, log, [lib, lib], opts)
    assert ours == ref
    assert "DELEGATE" not in [name for _, name in ours[2]]


PROBE = "probe plan=1 node=1 preview=1 replace=1 acquire=1 release=1"
FORBIDDEN = "The function is forbidden if not calling in delegate."


def test_callbacks_forbidden_outside_delegate_prepare(log, lib):
    """The delegate-only callbacks, called from a kernel's prepare, all fail
    (doc §1.5); the delegate's own Prepare used them successfully."""
    constructed = both(log, lib, "CONST", {"ops": "0", "probe": 1})[0]
    assert PROBE in constructed


def test_acquired_context_keeps_callbacks(log, lib):
    """Prepare acquires its own subgraph's context without releasing it: as
    in TFLite the switches nest, so the kernel's prepare still has the
    callbacks (its Release then switches them off)."""
    constructed = both(log, lib, "CONST", {"ops": "0", "probe": 1, "acquire": 1})[0]
    assert constructed[0] == "probe acquire=0 self=1"
    assert PROBE.replace("=1", "=0") in constructed


def test_forbidden_callback_messages(log, lib):
    """Each refused call reports TFLite's message."""
    r = both(log, lib, "CONST", {"ops": "0", "probe": 1, "fail": "kprepare"})
    assert r[:2] == ("error", "RuntimeError")
    assert r[2] == 6 * FORBIDDEN + FAILURES["kprepare"].replace("Node number 6", "Node number 2")
    assert PROBE in r[3]


def test_old_delegate_layout(tmp_path_factory):
    """A 48-byte TfLiteDelegate followed by garbage works in both runtimes (doc §1.9.2)."""
    path = build(tmp_path_factory, "OLD_DELEG")
    for name, ops in (("G1", "0,18"), ("G4", "0")):
        both(logger(path), path, name, {"ops": ops})


def test_old_registration_layout(tmp_path_factory, log, lib):
    """A 64-byte registration passed by value (crashes TFLite): tflite_fast
    trusts only its V1 prefix and behaves as with the current layout."""
    path = build(tmp_path_factory, "OLD_REG")
    old = run(tff, logger(path), path, G1, [A, B], {"ops": "0,18"})
    new = run(tff, log, lib, G1, [A, B], {"ops": "0,18"})
    assert old == new and old[0] != "error"


def test_second_delegate_claims_first_delegates_node(log, lib):
    """d2 claims d1's DELEGATE node 7 (builtin code 51), whose output d1 owns:
    application fails and every delegate is removed (doc §2.3)."""
    msgs = []
    for module in (oracle.oracle_module(), tff):
        d1, d2 = module.load_delegate(lib, {"ops": "0,18"}), module.load_delegate(lib, {"ops": "51"})
        with pytest.raises(RuntimeError) as e:
            module.Interpreter(model_content=G1, experimental_delegates=[d1, d2],
                               experimental_op_resolver_type=module.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        msgs.append(str(e.value))
        del d1, d2
        gc.collect()
    tail = ("tensor->delegate == nullptr || tensor->delegate == delegate was not true."
            "Restored original execution plan after delegate application failure.")
    assert msgs[0].endswith(tail)  # LiteRT prefixes its source file and line
    assert msgs[1] == tail


# ---- load_delegate (doc §2.2) ----

def unraisable(fn):
    """Runs fn; returns the exceptions ignored in __del__ meanwhile."""
    seen = []
    old = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        fn()
        gc.collect()
    finally:
        sys.unraisablehook = old
    return seen


def test_missing_library():
    def f():
        with pytest.raises(OSError, match="libdoesnotexist.so"):
            tff.load_delegate("libdoesnotexist.so")
    assert unraisable(f) == []


def test_missing_symbol():
    libm = ctypes.util.find_library("m")

    def f():
        with pytest.raises(AttributeError, match="tflite_plugin_create_delegate"):
            tff.load_delegate(libm)
    assert unraisable(f) == []


def test_create_fails(log, lib):
    log.test_delegate_log_clear()

    def f():
        with pytest.raises(ValueError) as e:
            tff.load_delegate(lib, {"ops": "0", "fail": "create"})
        assert str(e.value) == "Failed to load delegate from %s\ntest_delegate: create failure requested" % lib
    assert unraisable(f) == []
    gc.collect()
    assert log.test_delegate_log().decode().splitlines() == ["create", "destroy null"]


def test_destroy_once(log, lib):
    log.test_delegate_log_clear()
    d = tff.load_delegate(lib, {"ops": "0"})
    it = tff.Interpreter(model_content=G1, experimental_delegates=[d])
    del d
    gc.collect()
    assert "destroy delegate" not in log.test_delegate_log().decode()  # the interpreter keeps it
    del it
    gc.collect()
    lines = log.test_delegate_log().decode().splitlines()
    assert lines.count("destroy delegate") == 1
    assert lines.index("destroy delegate") > max(i for i, e in enumerate(lines) if e == "free")


def test_options_are_strings(log, lib):
    """keys and values go through str(): dynamic=True arrives as "True" (not "1")."""
    log.test_delegate_log_clear()
    d = tff.load_delegate(lib, {"ops": "0", "dynamic": True})
    tff.Interpreter(model_content=CONST, experimental_delegates=[d])
    assert "kprepare" in events(log)  # static: "True" is not "1"
