"""Malformed models must never crash the process.

For every shared model: truncations at many cut points and seeded random byte flips /
4-byte overwrites. Each mutated model goes through Interpreter(model_content=...), then
allocate_tensors() and invoke() with zero inputs when construction succeeds. Allowed
outcomes: it works, construction raises ValueError, allocate/invoke raise RuntimeError,
always with a non-empty message.

The mutation loop runs in a child process per model; the child logs each trial before
running it, so a crash (signal, abort) is reported with the mutation (kind, offset, value,
seed) instead of killing pytest. A watchdog ends trials that run for more than TRIAL_TIMEOUT
seconds (a mutated loop bound can legitimately make a model run for a long time); those are
counted as timeouts, not failures. The child runs under an address-space limit so a mutated
shape that asks for a huge arena must fail cleanly rather than get the process OOM-killed.
"""

import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from oracle import MODELS_DIR, shared_models

N_RANDOM = 80           # random mutations per model in the default run
N_RANDOM_SLOW = 1000    # under the slow marker
N_SPREAD = 40           # truncation points spread over the file
TRIAL_TIMEOUT = 10.0    # seconds per mutated model before the watchdog gives up on it
ADDRESS_SPACE = 6 << 30  # RLIMIT_AS of the child
WATCHDOG_EXIT = 86
# Models whose invoke is expensive: fewer random mutations in the default run.
HEAVY = {"mobilenet_v2_float", "mobilenet_v2_int8", "mobilenet_v2_fp16", "mobilenet_v2_hybrid",
         "mobilenet_v3_small_float", "mobilenet_v3_small_int8", "unet_small_float",
         "unet_small_int8"}
N_RANDOM_HEAVY = 15
INTERESTING_WORDS = [0, 1, 2, 3, 4, 7, 8, 16, 255, 256, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0x80000000,
                     0xFFFFFFFF, 0xFFFFFFFE, 0x40000000, 0x10000]


def buffer_ranges(model_bytes):
    """[start, end) byte ranges of the buffers' data vectors (the weights)."""
    from model_builder import S

    model = S.Model.GetRootAs(model_bytes, 0)
    ranges = []
    for i in range(model.BuffersLength()):
        tab = model.Buffers(i)._tab
        o = tab.Offset(4)  # Buffer.data
        if o:
            start = tab.Vector(o)
            ranges.append((start, start + tab.VectorLen(o)))
    return ranges


def trials(model_bytes, n_random, seed):
    """Deterministic list of mutations: ('trunc', cut) | ('flip', offset, xor) |
    ('word', offset, value)."""
    size = len(model_bytes)
    cuts = {0, 1, 4, 8, 16, 100, size - 1}
    cuts |= {size * k // (N_SPREAD + 1) for k in range(1, N_SPREAD + 1)}
    out = [("trunc", c) for c in sorted(c for c in cuts if 0 <= c < size)]
    rng = random.Random(seed)
    weights = buffer_ranges(model_bytes)

    def in_weights(off):
        return any(a <= off < b for a, b in weights)

    for _ in range(n_random):
        # Mostly the structure (tables, vtables, vectors of ints, strings); a tenth in the
        # weights, which only changes numbers.
        want_weights = rng.random() < 0.1 and weights
        for _attempt in range(1000):
            off = rng.randrange(size)
            if bool(in_weights(off)) == bool(want_weights):
                break
        if rng.random() < 0.5:
            out.append(("flip", off, rng.randrange(1, 256)))
        else:
            off &= ~3
            value = rng.choice(INTERESTING_WORDS) if rng.random() < 0.7 else rng.randrange(1 << 32)
            out.append(("word", off, value))
    return out


def mutate(model_bytes, trial):
    if trial[0] == "trunc":
        return model_bytes[: trial[1]]
    b = bytearray(model_bytes)
    if trial[0] == "flip":
        b[trial[1]] ^= trial[2]
    else:
        b[trial[1]: trial[1] + 4] = trial[2].to_bytes(4, "little")[: len(b) - trial[1]]
    return bytes(b)


def run_trial(module, data, mode):
    """'ok' or 'stage:ExceptionType' for an allowed failure; 'BAD ...' for a wrong one."""
    resolver = getattr(module.OpResolverType, {"default": "AUTO", "ref": "BUILTIN_REF"}[mode])
    try:
        interp = module.Interpreter(model_content=data, experimental_op_resolver_type=resolver,
                                    num_threads=1)
    except ValueError as e:
        return "construct:ValueError" if str(e).strip() else "BAD construct: empty ValueError"
    except Exception as e:
        return f"BAD construct: {type(e).__name__}: {str(e)[:200]}"
    stage = "allocate"
    try:
        interp.allocate_tensors()
        stage = "invoke"
        for d in interp.get_input_details():
            shape = tuple(int(s) for s in d["shape"])
            if np.prod(shape, dtype=np.float64) * np.dtype(d["dtype"]).itemsize < (64 << 20):
                try:
                    interp.set_tensor(d["index"], np.zeros(shape, d["dtype"]))
                except ValueError:
                    pass  # e.g. a tensor type set_tensor cannot take; invoke anyway
        interp.invoke()
        return "ok"
    except RuntimeError as e:
        return f"{stage}:RuntimeError" if str(e).strip() else f"BAD {stage}: empty RuntimeError"
    except Exception as e:
        return f"BAD {stage}: {type(e).__name__}: {str(e)[:200]}"


def child_main(name, n_random, seed, start, progress_path):
    """Run trials[start:] writing 'B i' before and 'E i result' after each one."""
    import resource

    import oracle

    if os.environ.get("TFF_UNDER_ASAN") != "1":  # ASan reserves terabytes of address space;
        # its max_allocation_size_mb (set by tests/fuzz/run_sanitized_tests.sh) plays this role.
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    module = oracle.ours_module()
    model_bytes = (MODELS_DIR / f"{name}.tflite").read_bytes()
    ts = trials(model_bytes, n_random, seed)
    small = len(model_bytes) < (1 << 20)
    current = {"i": None, "t": 0.0}
    lock = threading.Lock()

    def watchdog():
        while True:
            time.sleep(0.5)
            with lock:
                i, t0 = current["i"], current["t"]
            if i is not None and time.monotonic() - t0 > TRIAL_TIMEOUT:
                os._exit(WATCHDOG_EXIT)

    threading.Thread(target=watchdog, daemon=True).start()
    with open(progress_path, "a") as log:
        for i in range(start, len(ts)):
            log.write(f"B {i}\n")
            log.flush()
            with lock:
                current["i"], current["t"] = i, time.monotonic()
            # Small models alternate numerics modes (ref prepare paths differ per op);
            # big ones stay in default mode, where invoke is fast.
            mode = "ref" if (small and i % 2) else "default"
            result = run_trial(module, mutate(model_bytes, ts[i]), mode)
            with lock:
                current["i"] = None
            log.write(f"E {i} {mode} {result}\n")
            log.flush()


_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
import test_malformed
test_malformed.child_main(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
"""


def run_mutations(name, n_random, seed):
    """Drive child processes over all trials; returns (results, crashes, timeouts)."""
    model_bytes = (MODELS_DIR / f"{name}.tflite").read_bytes()
    ts = trials(model_bytes, n_random, seed)
    results, crashes, timeouts = {}, [], []
    start = 0
    tests_dir = str(Path(__file__).resolve().parent)
    with tempfile.TemporaryDirectory() as tmp:
        progress = Path(tmp, "progress.log")
        while start < len(ts):
            progress.write_text("")
            proc = subprocess.run(
                [sys.executable, "-c", _CHILD, tests_dir, name, str(n_random), str(seed),
                 str(start), str(progress)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                timeout=max(300.0, 5.0 * len(ts)))
            begun = None
            for line in progress.read_text().splitlines():
                parts = line.split(" ", 3)
                if parts[0] == "B":
                    begun = int(parts[1])
                elif parts[0] == "E":
                    results[int(parts[1])] = (parts[2], parts[3])
                    begun = None
            if proc.returncode == 0:
                break
            if begun is None:  # died outside a trial (import error, ...)
                raise AssertionError(f"{name}: mutation child failed (exit {proc.returncode}):\n"
                                     f"{proc.stderr.decode(errors='replace')[-3000:]}")
            desc = f"trial {begun} {ts[begun]} (seed {seed})"
            if proc.returncode == WATCHDOG_EXIT:
                timeouts.append(desc)
            else:
                how = (f"signal {-proc.returncode}" if proc.returncode < 0
                       else f"exit {proc.returncode}")
                crashes.append(f"{desc}: {how}; stderr tail: "
                               f"{proc.stderr.decode(errors='replace')[-800:]!r}")
            start = begun + 1
    return ts, results, crashes, timeouts


def _check(name, n_random, seed, record_property):
    ts, results, crashes, timeouts = run_mutations(name, n_random, seed)
    bad = [f"trial {i} {ts[i]} (seed {seed}) mode {mode}: {r}"
           for i, (mode, r) in sorted(results.items()) if r.startswith("BAD")]
    counts = {}
    for _, r in results.values():
        key = "BAD" if r.startswith("BAD") else r
        counts[key] = counts.get(key, 0) + 1
    summary = (f"{name}: {len(ts)} mutations: {dict(sorted(counts.items()))}, "
               f"crashes {len(crashes)}, timeouts {len(timeouts)}")
    print(summary)
    record_property("mutations", summary)
    problems = [f"CRASH {c}" for c in crashes] + bad
    assert not problems, summary + "\n" + "\n".join(problems[:30])


@pytest.mark.parametrize("name", shared_models())
def test_malformed(name, record_property):
    _check(name, N_RANDOM_HEAVY if name in HEAVY else N_RANDOM, sum(map(ord, name)),
           record_property)


@pytest.mark.slow
@pytest.mark.parametrize("name", shared_models())
def test_malformed_many(name, record_property):
    _check(name, N_RANDOM_SLOW, sum(map(ord, name)) + 1, record_property)
