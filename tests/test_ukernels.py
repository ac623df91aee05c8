"""Builds and runs the C ukernel tests (tests/ukernels/test_<family>.c).

Each program compares every kernel of its family that the build has against
the family's scalar twin (see tests/ukernels/ukernel_test.h) and prints
PASS/SKIP/FAIL per kernel. Targets: the native x86-64 compiler (with ASan and
UBSan, so a read past a row is caught), and, when the cross tools exist,
aarch64 (neon, neondot) and armv7 (neon) under qemu.

Adding a family is one line in FAMILIES: (test program, kernel folder).
"""
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"

FAMILIES = [
    ("test_qs8_qc8w_gemm.c", "csrc/ukernels/qs8-qc8w-gemm"),
    ("test_f32_gemm.c", "csrc/ukernels/f32-gemm"),
    ("test_qs8_qc8w_dwconv.c", "csrc/ukernels/qs8-qc8w-dwconv"),
    ("test_f32_dwconv.c", "csrc/ukernels/f32-dwconv"),
    ("test_f32_vbinary.c", "csrc/ukernels/f32-vbinary"),
    ("test_qs8_vadd.c", "csrc/ukernels/qs8-vadd"),
    ("test_qs8_vmul.c", "csrc/ukernels/qs8-vmul"),
    ("test_qs8_packw.c", "csrc/ukernels/qs8-packw"),
    ("test_qs8_rsum.c", "csrc/ukernels/qs8-rsum"),
    ("test_f32_rsum.c", "csrc/ukernels/f32-rsum"),
    ("test_f32_raddstoreexpminusmax.c", "csrc/ukernels/f32-raddstoreexpminusmax"),
    ("test_f32_vrsqrt.c", "csrc/ukernels/f32-vrsqrt"),
    ("test_f16_f32_vcvt.c", "csrc/ukernels/f16-f32-vcvt"),
    ("test_qs8_requantization.c", "csrc/ukernels/qs8-requantization"),
    ("test_f32_maxpool.c", "csrc/ukernels/f32-maxpool"),
    ("test_f32_avgpool.c", "csrc/ukernels/f32-avgpool"),
    ("test_qs8_maxpool.c", "csrc/ukernels/qs8-maxpool"),
    ("test_qs8_avgpool.c", "csrc/ukernels/qs8-avgpool"),
]

ALL_ISAS = ("sse41", "avx2", "avx512vnni", "neon", "neondot")
COMMON = ["-std=c11", "-D_GNU_SOURCE", "-O2", "-ffp-contract=off", "-Wall", "-Werror",
          "-Wno-unused-function", f"-I{CSRC}", f"-I{ROOT / 'tests' / 'ukernels'}"]

# Line info without variable tracking: the fully unrolled dwconv kernels
# take minutes to build with it under the sanitizers.
X86_EXTRA = ["-g", "-fno-var-tracking-assignments", "-fsanitize=address,undefined",
             "-fno-sanitize-recover=all"]
# name -> (compiler, per-ISA flags, extra flags, runner prefix)
TARGETS = {
    "x86_64": ("gcc", {"sse41": ["-msse4.1"], "avx2": ["-mavx2", "-mfma"],
                       "avx512vnni": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl",
                                      "-mavx512vnni"]},
               X86_EXTRA, []),
    # The avx512vnni kernels on any AVX2 CPU: their AVX-512 intrinsics
    # emulated lane by lane (tests/ukernels/avx512_emu.h), so their logic is
    # checked where the CPU has no AVX-512 (the native target SKIPs them);
    # cpu.c then detects an AVX2 CPU as avx512vnni, as in setup.py's
    # TFF_EMULATE_AVX512 build.
    "x86_64-avx512emu": ("gcc", {"sse41": ["-msse4.1"],  # packing shared with sse41
                                 "avx512vnni": ["-mavx2", "-mfma", "-include",
                                                str(ROOT / "tests" / "ukernels" / "avx512_emu.h")]},
                         X86_EXTRA + ["-Wno-psabi",
                                      "-DTFF_EMULATE_AVX512VNNI=1"], []),
    "aarch64": ("aarch64-linux-gnu-gcc", {"neon": [], "neondot": ["-march=armv8.2-a+dotprod"]},
                ["-static"], ["qemu-aarch64", "-cpu", "max"]),
    "armv7": ("arm-linux-gnueabihf-gcc", {"neon": ["-mfpu=neon"]},
              ["-static", "-march=armv7-a", "-mfpu=neon", "-mfloat-abi=hard"], ["qemu-arm"]),
}


def isa_of(path):
    parts = Path(path).name[:-2].split("-")
    found = [p for p in parts if p in ALL_ISAS]
    return found[-1] if found else None


def build(test_c, folder, target, out_dir):
    cc, isa_flags, extra, _ = TARGETS[target]
    kernels = sorted((ROOT / folder).glob("*.c"))
    defs = [f"-DTFF_BUILD_{isa.upper()}=1" for isa in isa_flags]
    cmds, objs = [], []
    for src in kernels + [CSRC / "cpu" / "cpu.c", ROOT / "tests" / "ukernels" / test_c]:
        isa = isa_of(src)
        if isa is not None and isa not in isa_flags:
            continue
        obj = out_dir / (src.name + ".o")
        cmds.append([cc] + COMMON + extra + defs + (isa_flags[isa] if isa else []) +
                    ["-c", str(src), "-o", str(obj)])
        objs.append(str(obj))
    # One compiler per core: a family's files build independently.
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for done in pool.map(lambda cmd: subprocess.run(cmd, capture_output=True, text=True),
                             cmds):
            if done.returncode != 0:
                raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout,
                                                    done.stderr)
    exe = out_dir / test_c[:-2]
    subprocess.run([cc] + extra + objs + ["-lm", "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    return exe


def missing_tools(target):
    cc, _, _, runner = TARGETS[target]
    if target.startswith("x86_64") and os.uname().machine != "x86_64":
        return "not an x86-64 host"
    missing = [t for t in [cc] + runner[:1] if shutil.which(t) is None]
    if missing:
        return (f"cross tools {', '.join(missing)} not installed (apt-get install qemu-user "
                "gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf)")
    return None


def has_avx512(folder):
    return any(isa_of(f) == "avx512vnni" for f in (ROOT / folder).glob("*.c"))


# Every family on every target; the emulation only where it has something
# to emulate.
CASES = [pytest.param(test_c, folder, target, id=f"{test_c[5:-2]}-{target}")
         for target in TARGETS for test_c, folder in FAMILIES
         if target != "x86_64-avx512emu" or has_avx512(folder)]


@pytest.mark.parametrize("test_c,folder,target", CASES)
def test_family(test_c, folder, target, tmp_path):
    reason = missing_tools(target)
    if reason:
        pytest.skip(reason)
    try:
        exe = build(test_c, folder, target, tmp_path)
    except subprocess.CalledProcessError as e:
        pytest.fail(f"build failed: {' '.join(e.cmd)}\n{e.stderr}")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
    r = subprocess.run(TARGETS[target][3] + [str(exe)], capture_output=True, text=True,
                       timeout=600, env=env)
    print(r.stdout)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS" in r.stdout and "FAIL" not in r.stdout


def test_avx512_emulation(tmp_path):
    """avx512_emu.h, which the x86_64-avx512emu target trusts, against the
    AVX2 instructions doing the same on each 256-bit half."""
    reason = missing_tools("x86_64")
    if reason:
        pytest.skip(reason)
    cc, _, extra, _ = TARGETS["x86_64-avx512emu"]
    exe = tmp_path / "test_avx512_emu"
    srcs = [ROOT / "tests" / "ukernels" / "test_avx512_emu.c", CSRC / "cpu" / "cpu.c"]
    r = subprocess.run([cc] + COMMON + extra + ["-mavx2", "-mfma"] + [str(s) for s in srcs] +
                       ["-lm", "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
    print(r.stdout)
    assert r.returncode == 0 and ("PASS" in r.stdout or "SKIP" in r.stdout), r.stdout + r.stderr
