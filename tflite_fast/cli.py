"""The `tflite-fast` command.

    tflite-fast run [MODEL] [--num_runs N] [--num_threads T] [--reference]
    tflite-fast bench MODEL [--num_runs N] [--warmup_runs N] [--num_threads T]
                      [--enable_op_profiling] [--compare ai_edge_litert|tflite_runtime]
                      [--reference] [--json]
    tflite-fast diff MODEL --against ai_edge_litert|tflite_runtime|reference
                     [--num_runs N] [--tolerance X] [--reference] [--json]
    tflite-fast inspect MODEL [--delegate LIB.so[:k=v,...]]... [--dot FILE] [--json]

`run` loads a model (the bundled one by default), prints its inputs and
outputs, invokes it on random inputs and prints the latency.
`bench` is TFLite's benchmark_model (same flag names): init time, first run,
then the latency distribution of the round trip (set_tensor + invoke +
get_tensor), arena and RSS; --compare runs another runtime interleaved with
ours in the same process; --enable_op_profiling prints a per-op table timed
inside the C plan loop.
`diff` is TFLite's inference-diff tool: random inputs through two
interpreters, per output the mean/std (over runs) of the mean absolute
difference, the max absolute difference, and for integer outputs the number
and share of differing elements. Exit status 1 when a difference exceeds
--tolerance.
`inspect` prints inputs/outputs with quantization, signatures, every op with
its version and whether tflite_fast supports it, the arena plan and the
model metadata; --dot writes a Graphviz graph (and an SVG when `dot` exists).
--delegate applies an external delegate (load_delegate with the options
given as k=v pairs; repeat it for several, applied in order) and prints the
partitions: which nodes each DELEGATE node replaced; --dot then draws each
partition as a cluster around the nodes it replaced.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

from . import _core, default_model_path
from . import metadata as _metadata
from .interpreter import Interpreter, OpResolverType, load_delegate

OTHER_RUNTIMES = ("ai_edge_litert", "tflite_runtime")


def _describe(d):
    q = d["quantization"]
    qs = "" if q == (0.0, 0) else "  scale=%g zero_point=%d" % q
    shape = [int(x) for x in d["shape"]]
    return "  %-40s %-8s %s%s" % (d["name"][:40], np.dtype(d["dtype"]).name, shape, qs)


def _random_input(d, rng):
    """Gaussian for float inputs; uniform over the whole type range for
    integer ones (for a quantized input that is its quantized range)."""
    dt = np.dtype(d["dtype"])
    if dt.kind == "f":
        return rng.standard_normal(d["shape"]).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=d["shape"], endpoint=True).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=d["shape"]).astype(dt)
    raise ValueError("cannot make a random input of type %s" % dt)


# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------

def cmd_run(args):
    path = args.model or default_model_path()
    resolver = OpResolverType.BUILTIN_REF if args.reference else OpResolverType.AUTO
    t0 = time.perf_counter()
    it = Interpreter(model_path=path, num_threads=args.num_threads, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    t_init = time.perf_counter() - t0
    print("model:   %s" % path)
    print("numerics: %s, threads: %d, arena: %d bytes, init: %.2f ms"
          % ("reference" if args.reference else "default", args.num_threads, it.arena_bytes, t_init * 1e3))
    print("inputs:")
    for d in it.get_input_details():
        print(_describe(d))
    print("outputs:")
    for d in it.get_output_details():
        print(_describe(d))
    rng = np.random.default_rng(0)
    inputs = [(d["index"], _random_input(d, rng)) for d in it.get_input_details()]
    times = []
    for _ in range(max(1, args.num_runs)):
        t0 = time.perf_counter()
        for i, x in inputs:
            it.set_tensor(i, x)
        it.invoke()
        outs = [it.get_tensor(d["index"]) for d in it.get_output_details()]
        times.append(time.perf_counter() - t0)
    times = np.array(times) * 1e3
    print("invoke (set_tensor + invoke + get_tensor) over %d runs: median %.3f ms, min %.3f ms, mean %.3f ms"
          % (len(times), np.median(times), times.min(), times.mean()))
    for d, o in zip(it.get_output_details(), outs):
        flat = o.reshape(-1)
        print("output %s: %s%s" % (d["name"], np.array2string(flat[:10], precision=4),
                                   " ..." if flat.size > 10 else ""))
    return 0


# ---------------------------------------------------------------------------
# Runtimes: ours and the others, behind one tiny interface
# ---------------------------------------------------------------------------

def _other_interpreter(runtime, path, num_threads, reference):
    """An Interpreter of ai_edge_litert or tflite_runtime (ImportError if absent)."""
    if runtime == "ai_edge_litert":
        from ai_edge_litert import interpreter as mod
    elif runtime == "tflite_runtime":
        from tflite_runtime import interpreter as mod
    else:
        raise ValueError("unknown runtime %r (known: %s)" % (runtime, ", ".join(OTHER_RUNTIMES)))
    kw = {}
    if reference:
        kw["experimental_op_resolver_type"] = mod.OpResolverType.BUILTIN_REF
    return mod.Interpreter(model_path=path, num_threads=num_threads, **kw)


def _our_interpreter(path, num_threads, reference):
    resolver = OpResolverType.BUILTIN_REF if reference else OpResolverType.AUTO
    return Interpreter(model_path=path, num_threads=num_threads, experimental_op_resolver_type=resolver)


def _rss_bytes():
    """(current, peak) resident set size of this process; None where unknown."""
    cur = peak = None
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    cur = int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) * 1024
    except OSError:
        try:
            import resource

            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        except (ImportError, OSError):
            pass
    return cur, peak


class _Runner:
    """One interpreter with its inputs, timing round trips."""

    def __init__(self, name, make):
        rss0 = _rss_bytes()[0]
        t0 = time.perf_counter()
        self.it = make()
        self.it.allocate_tensors()
        self.init_s = time.perf_counter() - t0
        rss1 = _rss_bytes()[0]
        self.rss_delta = (rss1 - rss0) if rss0 is not None and rss1 is not None else None
        self.name = name
        self.inputs = []
        self.outputs = [d["index"] for d in self.it.get_output_details()]
        self.times = []
        self.first_s = None

    def feed(self, arrays):
        self.inputs = [(d["index"], a) for d, a in zip(self.it.get_input_details(), arrays)]

    def round_trip(self):
        t0 = time.perf_counter()
        for i, x in self.inputs:
            self.it.set_tensor(i, x)
        self.it.invoke()
        outs = [self.it.get_tensor(i) for i in self.outputs]
        return time.perf_counter() - t0, outs


def _stats_ms(times):
    t = np.asarray(times, dtype=np.float64) * 1e3
    if t.size == 0:
        return {}
    return {"min": float(t.min()), "median": float(np.median(t)), "mean": float(t.mean()),
            "p90": float(np.percentile(t, 90)), "std": float(t.std()), "count": int(t.size)}


class _Progress:
    """A one-line progress bar on stderr: always, never, or (auto) on a
    terminal once the loop has run for more than a second."""

    def __init__(self, total, mode):
        self.total = total
        self.mode = mode if mode != "auto" or sys.stderr.isatty() else "never"
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def update(self, done):
        now = time.perf_counter()
        if self.mode == "never" or (self.mode == "auto" and now - self.t0 < 1.0):
            return
        if done < self.total and now - self.last < 0.1:
            return
        self.last = now
        self.shown = True
        width = 30
        filled = int(width * done / max(1, self.total))
        eta = (now - self.t0) / max(1, done) * (self.total - done)
        sys.stderr.write("\r[%s%s] %d/%d  eta %.1fs " % ("#" * filled, "." * (width - filled), done,
                                                         self.total, eta))
        sys.stderr.flush()

    def close(self):
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


# ---------------------------------------------------------------------------
# bench
# ---------------------------------------------------------------------------

def _kernel(core, node):
    """The ukernel a node chose (node()'s 6th field, when the core reports it)."""
    info = core._node(node)
    return info[5] if len(info) > 5 else ""


def _profile_rows(core):
    """Per-node rows of subgraph 0 from core._profile(): (node_index, op_name,
    total_ns, count) counted since set_profiling(True). Nodes of control-flow
    bodies are inside their WHILE/IF node's time."""
    rows = []
    for r in core._profile():
        node, op, total_ns, count = int(r[0]), r[1], int(r[2]), int(r[3])
        kernel = _kernel(core, node)
        rows.append({"node": node, "op": op, "kernel": kernel, "total_ns": total_ns, "count": count})
    total = sum(r["total_ns"] for r in rows) or 1
    for r in rows:
        r["avg_ms"] = r["total_ns"] / max(1, r["count"]) / 1e6
        r["share"] = r["total_ns"] / total
    rows.sort(key=lambda r: -r["total_ns"])
    return rows


def _print_profile(rows, top):
    print("\nper-op profile (timed in the C plan loop), sorted by cost:")
    print("  %5s  %-24s %10s %7s %7s  %s" % ("node", "op", "avg ms", "share", "cum", "kernel"))
    cum = 0.0
    for r in rows[:top]:
        cum += r["share"]
        print("  %5d  %-24s %10.4f %6.2f%% %6.2f%%  %s" % (r["node"], r["op"][:24], r["avg_ms"],
                                                         100 * r["share"], 100 * cum, r["kernel"]))
    if len(rows) > top:
        print("  ... %d more nodes" % (len(rows) - top))
    by_op = {}
    for r in rows:
        agg = by_op.setdefault(r["op"], [0, 0.0, 0.0])
        agg[0] += 1
        agg[1] += r["avg_ms"]
        agg[2] += r["share"]
    print("\nby op type:")
    print("  %-24s %6s %10s %7s" % ("op", "nodes", "avg ms", "share"))
    for op, (n, ms, share) in sorted(by_op.items(), key=lambda kv: -kv[1][2]):
        print("  %-24s %6d %10.4f %6.2f%%" % (op[:24], n, ms, 100 * share))


def cmd_bench(args):
    path = args.model
    if args.num_runs < 1 or args.warmup_runs < 0:
        raise ValueError("--num_runs must be >= 1 and --warmup_runs >= 0")
    ours = _Runner("tflite_fast", lambda: _our_interpreter(path, args.num_threads, args.reference))
    runners = [ours]
    if args.compare:
        try:
            runners.append(_Runner(args.compare, lambda: _other_interpreter(
                args.compare, path, args.num_threads, args.reference)))
        except ImportError:
            raise ValueError("--compare %s: the package is not installed" % args.compare) from None

    rng = np.random.default_rng(args.seed)
    arrays = [_random_input(d, rng) for d in ours.it.get_input_details()]
    for r in runners:
        r.feed(arrays)
        r.first_s = r.round_trip()[0]
        for _ in range(args.warmup_runs):
            r.round_trip()

    core = ours.it._interpreter
    profiling = args.enable_op_profiling
    if profiling:
        core._set_profiling(True)  # resets the counters

    bar = _Progress(args.num_runs, args.progress)
    for k in range(args.num_runs):
        # Interleaved, alternating the order, so that drift (frequency, other
        # load, caches) hits every runtime alike.
        for r in (runners if k % 2 == 0 else runners[::-1]):
            r.times.append(r.round_trip()[0])
        bar.update(k + 1)
    bar.close()

    profile = None
    if profiling:
        profile = _profile_rows(core)
        core._set_profiling(False)

    cur, peak = _rss_bytes()
    report = {
        "model": os.path.abspath(path),
        "numerics": "reference" if args.reference else "default",
        "num_threads": args.num_threads,
        "num_runs": args.num_runs,
        "warmup_runs": args.warmup_runs,
        "rss_bytes": cur,
        "rss_peak_bytes": peak,
        "runtimes": {},
    }
    for r in runners:
        report["runtimes"][r.name] = {
            "init_ms": r.init_s * 1e3,
            "first_run_ms": r.first_s * 1e3,
            "round_trip_ms": _stats_ms(r.times),
            "rss_init_delta_bytes": r.rss_delta,
        }
    report["runtimes"]["tflite_fast"]["arena_bytes"] = ours.it.arena_bytes
    if len(runners) > 1:
        report["speedup"] = (report["runtimes"][args.compare]["round_trip_ms"]["median"]
                             / max(1e-12, report["runtimes"]["tflite_fast"]["round_trip_ms"]["median"]))
    if args.enable_op_profiling:
        report["op_profile"] = profile

    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print("model:      %s" % path)
    print("numerics:   %s, threads: %d, runs: %d (+%d warm-up)" % (report["numerics"], args.num_threads,
                                                               args.num_runs, args.warmup_runs))
    print("arena:      %d bytes" % ours.it.arena_bytes)
    print("RSS:        %s now, %s peak" % (_mib(cur), _mib(peak)))
    print("round trip = set_tensor + invoke + get_tensor, in ms:")
    print("  %-16s %9s %9s %9s %9s %9s %9s %9s %10s" % ("runtime", "init", "first", "min", "median",
                                                        "mean", "p90", "std", "init RSS"))
    for name, r in report["runtimes"].items():
        s = r["round_trip_ms"]
        print("  %-16s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %10s"
              % (name, r["init_ms"], r["first_run_ms"], s["min"], s["median"], s["mean"], s["p90"],
                 s["std"], _mib(r["rss_init_delta_bytes"])))
    if "speedup" in report:
        print("speedup (median %s / median tflite_fast): %.2fx" % (args.compare, report["speedup"]))
    if profile is not None:
        _print_profile(profile, args.top)
    return 0


def _mib(n):
    return "?" if n is None else "%.1f MiB" % (n / (1 << 20))


# ---------------------------------------------------------------------------
# diff
# ---------------------------------------------------------------------------

class _DiffStats:
    """Per output: TFLite inference-diff's statistics. Each run contributes
    the mean absolute difference over the output's elements; mean and std
    are over runs. Max is over every element of every run."""

    def __init__(self, name, dtype):
        self.name = name
        self.dtype = np.dtype(dtype)
        self.run_means = []
        self.max = 0.0
        self.differing = 0
        self.elements = 0

    def add(self, ours, theirs):
        if ours.shape != theirs.shape:
            raise ValueError("output %s: shape %s here, %s in the other interpreter"
                             % (self.name, list(ours.shape), list(theirs.shape)))
        a = ours.astype(np.float64)
        b = theirs.astype(np.float64)
        with np.errstate(invalid="ignore"):
            d = np.abs(a - b)
        both_nan = np.isnan(a) & np.isnan(b)
        d[both_nan] = 0.0
        d[np.isnan(d)] = np.inf  # one side NaN: as far apart as can be
        self.run_means.append(float(d.mean()) if d.size else 0.0)
        if d.size:
            self.max = max(self.max, float(d.max()))
        self.differing += int(np.count_nonzero(d))
        self.elements += int(d.size)

    def report(self):
        m = np.asarray(self.run_means)
        with np.errstate(invalid="ignore"):  # inf - inf when a run had a one-sided NaN
            out = {"name": self.name, "dtype": self.dtype.name,
                   "mean_abs_diff": float(m.mean()) if m.size else 0.0,
                   "std_abs_diff": float(m.std()) if m.size else 0.0,
                   "max_abs_diff": self.max}
        if self.dtype.kind in "iub":
            out["differing"] = self.differing
            out["elements"] = self.elements
            out["differing_share"] = self.differing / max(1, self.elements)
        return out


def cmd_diff(args):
    path = args.model
    if args.num_runs < 1:
        raise ValueError("--num_runs must be >= 1")
    if args.against == "reference":
        ours = _our_interpreter(path, args.num_threads, False)
        other = _our_interpreter(path, args.num_threads, True)
        label = "tflite_fast (reference numerics)"
    else:
        ours = _our_interpreter(path, args.num_threads, args.reference)
        try:
            other = _other_interpreter(args.against, path, args.num_threads, args.reference)
        except ImportError:
            raise ValueError("--against %s: the package is not installed" % args.against) from None
        label = args.against + (" (BUILTIN_REF)" if args.reference else "")
    ours.allocate_tensors()
    other.allocate_tensors()
    in_ours, in_other = ours.get_input_details(), other.get_input_details()
    out_ours, out_other = ours.get_output_details(), other.get_output_details()
    if len(in_ours) != len(in_other) or len(out_ours) != len(out_other):
        raise ValueError("the two interpreters disagree on the number of inputs/outputs")
    stats = [_DiffStats(d["name"], d["dtype"]) for d in out_ours]
    rng = np.random.default_rng(args.seed)
    bar = _Progress(args.num_runs, args.progress)
    for k in range(args.num_runs):
        arrays = [_random_input(d, rng) for d in in_ours]
        for it, details in ((ours, in_ours), (other, in_other)):
            for d, a in zip(details, arrays):
                it.set_tensor(d["index"], a)
            it.invoke()
        for s, a, b in zip(stats, out_ours, out_other):
            s.add(ours.get_tensor(a["index"]), other.get_tensor(b["index"]))
        bar.update(k + 1)
    bar.close()

    reports = [s.report() for s in stats]
    failed = [r["name"] for r in reports
              if args.tolerance is not None and not r["max_abs_diff"] <= args.tolerance]
    result = {"model": os.path.abspath(path), "against": label, "num_runs": args.num_runs,
              "tolerance": args.tolerance, "outputs": reports, "passed": not failed}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print("model:    %s" % path)
        print("against:  %s, %d runs of random inputs (seed %d)" % (label, args.num_runs, args.seed))
        print("  %-32s %-8s %12s %12s %12s %22s" % ("output", "dtype", "mean|diff|", "std", "max|diff|",
                                                   "differing elements"))
        for r in reports:
            dif = ("%d (%.4f%%)" % (r["differing"], 100 * r["differing_share"])) if "differing" in r else "-"
            print("  %-32s %-8s %12.6g %12.6g %12.6g %22s" % (r["name"][:32], r["dtype"], r["mean_abs_diff"],
                                                             r["std_abs_diff"], r["max_abs_diff"], dif))
        if args.tolerance is not None:
            print("tolerance %g: %s" % (args.tolerance, "passed" if not failed else
                                        "FAILED for " + ", ".join(failed)))
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# inspect
# ---------------------------------------------------------------------------

def _quant_text(scales, zero_points, qdim):
    if len(scales) == 0:
        return ""
    if len(scales) == 1:
        return "scale=%g zero_point=%d" % (scales[0], zero_points[0])
    return "per-channel: %d scales on dim %d" % (len(scales), qdim)


def _tensor_json(core, index, subgraph=0):
    name, ttype, shape, sig, _, scales, zps, qdim, _ = core._tensor_info(index, subgraph)
    dt = _core.np_type(ttype)
    return {"index": int(index), "name": name,
            "dtype": np.dtype(dt).name if dt is not None else "type %d" % ttype,
            "shape": [int(x) for x in shape], "shape_signature": [int(x) for x in sig],
            "quantization": _quant_text(scales, zps, qdim),
            "scales": [float(x) for x in scales], "zero_points": [int(x) for x in zps],
            "quantized_dimension": int(qdim)}


_NODE_FAILED = "Node number "


def _support(core, nsub):
    """Per subgraph, per node: (status, error). status is "yes", "no" (op
    not implemented), "prepare failed" (implemented, but refuses this node's
    types or parameters; error says why) or "?" (unknown).

    Whether each op is implemented comes from the core (the node resolved to
    a kernel); each subgraph is then allocated, and its first failure names
    the node whose prepare refused it."""
    out = []
    for s in range(nsub):
        n = core._num_nodes(s)
        status = [("yes" if core._node_supported(i, s) else "no", "") for i in range(n)]
        try:
            core._allocate(s)
            failed, msg = None, ""
        except (RuntimeError, ValueError, MemoryError) as e:
            msg = str(e)
            failed = _failed_node(msg)
        if failed is not None and 0 <= failed < n:
            reason = msg[:msg.rfind(_NODE_FAILED)].strip()
            unresolved = "Didn't find op" in msg or "unresolved custom op" in msg
            status[failed] = ("no", reason) if unresolved else ("prepare failed", reason)
        out.append(status)
    return out


def _failed_node(msg):
    k = msg.rfind(_NODE_FAILED)
    if k < 0:
        return None
    digits = msg[k + len(_NODE_FAILED):].split(" ", 1)[0]
    return int(digits) if digits.isdigit() else None


def _delegate_spec(spec):
    """'LIB.so[:k=v,...]' -> (library, {k: v}); a piece without '=' belongs
    to the previous value ('ops=0,18,x=1' is ops='0,18', x='1')."""
    library, sep, opts = spec.partition(":")
    if os.path.exists(spec) or not sep:  # the whole spec is a path
        return spec, {}
    options, key = {}, None
    for kv in opts.split(","):
        k, eq, v = kv.partition("=")
        if eq and k:
            key = k
            options[key] = v
        elif key is not None:  # a comma inside a value: ops=0,18
            options[key] += "," + kv
        else:
            raise ValueError("--delegate %s: options are k=v pairs separated by commas, got %r" % (spec, kv))
    return library, options


def _partitions(core, delegates, s):
    """Per delegate node of subgraph s: what it replaced (doc delegate-abi §4.2)."""
    which = {d._get_native_delegate_pointer(): i for i, (_, d) in enumerate(delegates)}
    out = []
    for i in range(core._num_nodes(s)):
        p = core._delegate_partition(i, s)
        if p is not None:
            nodes, ins, outs, ptr = p
            out.append({"node": i, "delegate": which.get(ptr, -1), "nodes": nodes, "inputs": ins, "outputs": outs})
    return out


def _inspect_data(path, delegate_specs=()):
    delegates = []
    for spec in delegate_specs:
        library, options = _delegate_spec(spec)
        try:
            delegates.append((spec, load_delegate(library, options)))
        except AttributeError as e:  # a library without the plugin symbols
            raise ValueError("--delegate %s: %s" % (spec, e)) from None
    it = Interpreter(model_path=path, experimental_delegates=[d for _, d in delegates])
    core = it._interpreter
    nsub = core._num_subgraphs()
    support = _support(core, nsub)
    data = {"model": os.path.abspath(path), "size_bytes": os.path.getsize(path),
            "inputs": [_tensor_json(core, i) for i in core._inputs(0)],
            "outputs": [_tensor_json(core, i) for i in core._outputs(0)],
            "signatures": [{"key": k, "subgraph": sg, "inputs": dict(ins), "outputs": dict(outs)}
                           for k, sg, ins, outs in core._signatures()],
            "delegates": [spec for spec, _ in delegates], "subgraphs": []}
    for s in range(nsub):
        partitions = _partitions(core, delegates, s)
        replaced_by = {n: p["node"] for p in partitions for n in p["nodes"]}
        ops = []
        for i in range(core._num_nodes(s)):
            info = core._node(i, s)
            name, ins, outs, code, version = info[:5]
            ops.append({"index": i, "op": name, "builtin_code": int(code), "version": int(version),
                        "inputs": [int(x) for x in ins], "outputs": [int(x) for x in outs],
                        "kernel": info[5] if len(info) > 5 else "", "supported": support[s][i][0],
                        "error": support[s][i][1], "delegated_to": replaced_by.get(i)})
        sub = {"index": s, "inputs": core._inputs(s), "outputs": core._outputs(s),
               "num_tensors": core._num_tensors(s), "ops": ops, "allocated": core._is_allocated(s),
               "partitions": partitions}
        if core._is_allocated(s):
            plan = core._memory_plan(s)
            for e in plan:
                e["name"] = core._tensor_info(e["tensor"], s)[0]
            sub["arena_bytes"] = int(core._arena_bytes(s))
            sub["memory_plan"] = plan
            sub["tensor_bytes_total"] = int(sum(e["size"] for e in plan))
        data["subgraphs"].append(sub)
    try:
        entries = _metadata.read_entries(path)
    except ValueError:
        entries = {}
    data["metadata_entries"] = {k: (v.decode("utf-8", "replace").strip("\0 ") if k == "min_runtime_version"
                                    else "%d bytes" % len(v)) for k, v in entries.items()}
    try:
        md = _metadata.read(path)
        data["metadata"] = _metadata_json(md) if md is not None else None
    except ValueError as e:
        data["metadata"] = {"error": str(e)}
    return data, core


def _metadata_json(md):
    def tensor(t):
        return {"name": t.name, "description": t.description, "normalization": t.normalization,
                "content": t.content, "process_units": [{"type": u.type, "options": _plain(u.options)}
                                                        for u in t.process_units],
                "associated_files": [vars(f) for f in t.associated_files]}

    return {"name": md.name, "description": md.description, "version": md.version,
            "author": md.author, "license": md.license, "min_parser_version": md.min_parser_version,
            "associated_files": [vars(f) for f in md.associated_files],
            "inputs": [tensor(t) for t in md.inputs], "outputs": [tensor(t) for t in md.outputs],
            "packed_files": md.file_names()}


def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "__dataclass_fields__"):
        return vars(v)
    return v


def _print_inspect(data):
    print("model: %s (%d bytes)" % (data["model"], data["size_bytes"]))
    for title, key in (("inputs", "inputs"), ("outputs", "outputs")):
        print("%s:" % title)
        for t in data[key]:
            sig = "" if t["shape_signature"] == t["shape"] else " signature=%s" % t["shape_signature"]
            print("  [%d] %-36s %-8s %s%s  %s" % (t["index"], t["name"][:36], t["dtype"], t["shape"], sig,
                                                  t["quantization"]))
    print("signatures:" + ("" if data["signatures"] else " none"))
    for s in data["signatures"]:
        print("  %s (subgraph %d): inputs %s -> outputs %s" % (s["key"], s["subgraph"], s["inputs"], s["outputs"]))
    for sub in data["subgraphs"]:
        ops = sub["ops"]
        unsupported = sum(1 for o in ops if o["supported"] != "yes")
        print("subgraph %d: %d ops, %d tensors%s" % (sub["index"], len(ops), sub["num_tensors"],
                                                      "" if not unsupported else ", %d not supported or unknown"
                                                      % unsupported))
        print("  %5s  %-26s %4s  %-14s %-24s %s" % ("node", "op", "ver", "supported", "inputs -> outputs",
                                                    "kernel"))
        for o in ops:
            io = "%s -> %s" % (o["inputs"], o["outputs"])
            kernel = o["kernel"] if o["delegated_to"] is None else "replaced by node %d" % o["delegated_to"]
            print("  %5d  %-26s %4d  %-14s %-24s %s" % (o["index"], o["op"][:26], o["version"],
                                                        o["supported"], io, kernel))
        if data["delegates"]:
            print("  partitions: %d" % len(sub["partitions"]))
        for p in sub["partitions"]:
            spec = data["delegates"][p["delegate"]] if p["delegate"] >= 0 else "?"
            print("    node %d (delegate %d: %s) replaces nodes %s: inputs %s -> outputs %s"
                  % (p["node"], p["delegate"], spec, p["nodes"], p["inputs"], p["outputs"]))
        if sub["partitions"]:
            replaced = {n for p in sub["partitions"] for n in p["nodes"]}
            drawn = {p["node"] for p in sub["partitions"]}
            cpu = [o["index"] for o in ops if o["index"] not in replaced and o["index"] not in drawn]
            print("    left to tflite_fast: nodes %s" % cpu)
        for o in ops:
            if o["error"]:
                print("  node %d (%s): %s" % (o["index"], o["op"], o["error"].replace("\n", " ")))
        if "arena_bytes" in sub:
            print("  arena: %d bytes for %d planned tensors (%d bytes unshared)"
                  % (sub["arena_bytes"], len(sub["memory_plan"]), sub["tensor_bytes_total"]))
            print("    %10s %10s %6s  %-9s %s" % ("offset", "size", "tensor", "steps", "name"))
            for e in sorted(sub["memory_plan"], key=lambda e: (e["offset"], e["first_step"])):
                print("    %10d %10d %6d  %4d-%-4d %s" % (e["offset"], e["size"], e["tensor"], e["first_step"],
                                                       e["last_step"], e["name"][:48]))
        else:
            print("  arena: not planned (allocation failed)")
    if data["metadata_entries"]:
        print("metadata entries: %s" % ", ".join("%s=%s" % kv for kv in data["metadata_entries"].items()))
    md = data["metadata"]
    if md is None:
        print("metadata: none")
    elif "error" in md:
        print("metadata: unreadable: %s" % md["error"])
    else:
        print("metadata:")
        for k in ("name", "description", "version", "author", "license", "min_parser_version"):
            if md[k]:
                print("  %-18s %s" % (k + ":", md[k]))
        for kind in ("inputs", "outputs"):
            for t in md[kind]:
                extra = []
                if t["normalization"]:
                    extra.append("normalization mean=%s std=%s" % tuple(t["normalization"]))
                for f in t["associated_files"]:
                    extra.append("file %s (%s)" % (f["name"], f["type"]))
                print("  %s %s: %s%s" % (kind[:-1], t["name"], t["description"] or "",
                                         ("; " + "; ".join(extra)) if extra else ""))
        if md["packed_files"]:
            print("  packed files: %s" % ", ".join(md["packed_files"]))


def _dot_quote(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"')


def _write_dot(data, core, path):
    """Ops as boxes, graph inputs/outputs as ellipses, edges labelled with the
    tensor's name and shape; constants are counted in the op label. A
    delegated partition is a cluster around the model nodes it replaced (the
    delegate node itself is not drawn: the cluster is it)."""
    sub = data["subgraphs"][0]
    delegate_nodes = {p["node"] for p in sub["partitions"]}
    ops = [o for o in sub["ops"] if o["index"] not in delegate_nodes]
    producer = {}
    for o in ops:
        for t in o["outputs"]:
            producer[t] = o["index"]
    lines = ["digraph tflite {", "  rankdir=TB;", '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=8];']
    for t in sub["inputs"]:
        lines.append("  t%d [shape=ellipse, label=%s];" % (t, _dot_quote("input %s" % core._tensor_info(t, 0)[0])))
    for t in sub["outputs"]:
        lines.append("  o%d [shape=ellipse, label=%s];" % (t, _dot_quote("output %s" % core._tensor_info(t, 0)[0])))

    def edge_label(t):
        info = core._tensor_info(t, 0)
        return _dot_quote("%s %s" % (info[0][:32], [int(x) for x in info[2]]))

    for o in ops:
        consts = sum(1 for t in o["inputs"] if t >= 0 and t not in producer and t not in sub["inputs"])
        label = "%s v%d\\n#%d%s" % (o["op"], o["version"], o["index"], ("\\n%d const" % consts) if consts else "")
        color = "" if o["supported"] == "yes" else ', style=filled, fillcolor="#f4b6b6"'
        lines.append('  n%d [shape=box, label="%s"%s];' % (o["index"], label.replace('"', '\\"'), color))
        for t in o["inputs"]:
            if t in producer:
                lines.append("  n%d -> n%d [label=%s];" % (producer[t], o["index"], edge_label(t)))
            elif t in sub["inputs"]:
                lines.append("  t%d -> n%d;" % (t, o["index"]))
    for p in sub["partitions"]:
        spec = data["delegates"][p["delegate"]] if p["delegate"] >= 0 else "?"
        members = " ".join("n%d;" % n for n in p["nodes"] if n not in delegate_nodes)
        lines.append('  subgraph cluster_d%d { label=%s; style=filled; fillcolor="#d8e8f8"; %s }'
                     % (p["node"], _dot_quote("DELEGATE #%d (%s)" % (p["node"], os.path.basename(spec))), members))
    for t in sub["outputs"]:
        if t in producer:
            lines.append("  n%d -> o%d [label=%s];" % (producer[t], t, edge_label(t)))
        elif t in sub["inputs"]:
            lines.append("  t%d -> o%d;" % (t, t))
    lines.append("}")
    text = "\n".join(lines) + "\n"
    svg = path.endswith(".svg")
    dot_path = path[:-4] + ".dot" if svg else path
    with open(dot_path, "w") as f:
        f.write(text)
    written = [dot_path]
    exe = shutil.which("dot")
    if exe:
        svg_path = path if svg else os.path.splitext(path)[0] + ".svg"
        r = subprocess.run([exe, "-Tsvg", dot_path, "-o", svg_path], capture_output=True, text=True)
        if r.returncode == 0:
            written.append(svg_path)
        else:
            print("tflite-fast: dot failed: %s" % r.stderr.strip(), file=sys.stderr)
    elif svg:
        print("tflite-fast: `dot` (Graphviz) is not installed: wrote %s only" % dot_path, file=sys.stderr)
    return written


def cmd_inspect(args):
    data, core = _inspect_data(args.model, args.delegate or ())
    if args.dot:
        data["dot_files"] = _write_dot(data, core, args.dot)
    if args.json:
        print(json.dumps(data, indent=2, default=str))
    else:
        _print_inspect(data)
        if args.dot:
            print("graph: %s" % ", ".join(data["dot_files"]))
    return 0


# ---------------------------------------------------------------------------

def main(argv=None):
    p = argparse.ArgumentParser(prog="tflite-fast", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)

    r = sub.add_parser("run", help="run a model on random inputs and time it")
    r.add_argument("model", nargs="?", help="a .tflite file (default: the bundled small CNN)")
    r.add_argument("--num_runs", type=int, default=50)
    r.add_argument("--num_threads", type=int, default=1)
    r.add_argument("--reference", action="store_true", help="use the reference (BUILTIN_REF) numerics")
    r.set_defaults(fn=cmd_run)

    b = sub.add_parser("bench", help="benchmark a model (TFLite benchmark_model's flags)")
    b.add_argument("model", help="a .tflite file")
    b.add_argument("--num_threads", type=int, default=1)
    b.add_argument("--num_runs", type=int, default=50, help="timed runs (default 50)")
    b.add_argument("--warmup_runs", type=int, default=1, help="untimed runs after the first (default 1)")
    b.add_argument("--enable_op_profiling", action="store_true", help="per-op times from the C plan loop")
    b.add_argument("--compare", choices=OTHER_RUNTIMES, help="also run this runtime, interleaved")
    b.add_argument("--reference", action="store_true", help="reference (BUILTIN_REF) numerics on both sides")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    b.add_argument("--top", type=int, default=30, help="rows of the per-op table (default 30)")
    b.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="progress bar on stderr (auto: on a terminal, for runs over a second)")
    b.set_defaults(fn=cmd_bench)

    d = sub.add_parser("diff", help="compare outputs with another interpreter on random inputs")
    d.add_argument("model", help="a .tflite file")
    d.add_argument("--against", required=True, choices=OTHER_RUNTIMES + ("reference",),
                   help="reference = tflite_fast's own reference (BUILTIN_REF) numerics")
    d.add_argument("--num_runs", type=int, default=50)
    d.add_argument("--num_threads", type=int, default=1)
    d.add_argument("--tolerance", type=float, default=None,
                   help="exit 1 when an output's max |difference| exceeds this (raw units: LSBs for integers)")
    d.add_argument("--reference", action="store_true",
                   help="with ai_edge_litert/tflite_runtime: BUILTIN_REF numerics on both sides")
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--json", action="store_true")
    d.add_argument("--progress", choices=("auto", "always", "never"), default="auto")
    d.set_defaults(fn=cmd_diff)

    i = sub.add_parser("inspect", help="ops, support, tensors, arena plan and metadata of a model")
    i.add_argument("model", help="a .tflite file")
    i.add_argument("--delegate", action="append", metavar="LIB.so[:k=v,...]",
                   help="apply this external delegate (repeatable) and show its partitions")
    i.add_argument("--dot", metavar="FILE", help="write a Graphviz graph (FILE.svg renders with dot)")
    i.add_argument("--json", action="store_true")
    i.set_defaults(fn=cmd_inspect)

    args = p.parse_args(argv)
    try:
        return args.fn(args)
    except (ValueError, RuntimeError, MemoryError, OSError) as e:
        print("tflite-fast: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
