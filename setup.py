"""The extension build only (metadata lives in pyproject.toml).

Every C file under csrc/ is compiled into the one extension module
tflite_fast._core. Switches (environment):
  TFF_DEBUG=1     -O0 -g, assertions on
  TFF_SANITIZE=1  ASan + UBSan, -fno-sanitize-recover
  TFF_NO_SIMD=1   scalar kernels only
  TFF_EMULATE_AVX512=1  tests only: the avx512vnni files built with the avx2
                  flags on tests/ukernels/avx512_emu.h (their AVX-512
                  intrinsics in C) and AVX2 CPUs detected as avx512vnni, so
                  the models run the AVX-512 paths on CPUs without AVX-512

MSVC (Windows) gets the equivalent flags of its own (MSVC_FLAGS, MSVC_ISA_FLAGS).

Per-ISA flags (XNNPACK's rule): a file whose name has an ISA token among its
'-'-separated parts (e.g. qs8-gemm-4x16c4-minmax-fp32-avx512vnni.c) is
compiled with that ISA's flags only, and only for a target that has the ISA;
TFF_BUILD_<ISA> is then defined for every file so dispatch knows the path
exists. Runtime detection (csrc/cpu) picks among the compiled paths.
"""
import glob
import os
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))

# -ffp-contract=off: fp32 requantization must not be fused into an FMA
# (docs/numerics.md §1.14); float results stay the same on every ISA.
# -falign-loops=32: a loop of <= 32 bytes then never crosses a 64-byte line.
# GCC's default (16) let the int8 table loop of HARD_SWISH/LOGISTIC (21
# bytes) straddle one after an unrelated change moved the code: two op-cache
# lines per iteration, 75 -> 125 us on mobilenet_v3_small's first HARD_SWISH.
CFLAGS = ["-std=c11", "-D_GNU_SOURCE", "-O2", "-ffp-contract=off", "-fno-math-errno",
          "-falign-loops=32", "-Wall", "-Wno-unused-function", "-fvisibility=hidden"]
LDFLAGS = []
if os.environ.get("TFF_DEBUG") == "1":
    CFLAGS += ["-O0", "-g", "-UNDEBUG"]
elif os.environ.get("TFF_SANITIZE") != "1" and sys.platform.startswith("linux"):
    # Release: no debug info, unused functions dropped, symbols stripped
    # (3.2 MB -> ~0.5 MB .so; wheels must stay under 1 MB).
    CFLAGS += ["-g0", "-ffunction-sections", "-fdata-sections"]
    LDFLAGS += ["-Wl,--gc-sections", "-s"]
if os.environ.get("TFF_SANITIZE") == "1":
    # -fno-wrapv: Python's own CFLAGS carry -fwrapv, which hides signed overflow from UBSan.
    san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer",
           "-g", "-fno-wrapv"]
    CFLAGS += san
    LDFLAGS += san

PLATFORM = sysconfig.get_platform()  # honours _PYTHON_HOST_PLATFORM when cross-building
if PLATFORM.endswith(("x86_64", "amd64", "i686")):
    ISA_FLAGS = {
        "sse41": ["-msse4.1"],
        "avx2": ["-mavx2", "-mfma"],
        "avx512vnni": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl", "-mavx512vnni"],
    }
elif PLATFORM.endswith(("aarch64", "arm64")):  # Linux; macOS and Windows say arm64
    ISA_FLAGS = {"neon": [], "neondot": ["-march=armv8.2-a+dotprod"]}
elif PLATFORM.endswith(("armv7l", "armv8l")):
    ISA_FLAGS = {"neon": ["-mfpu=neon"]}
else:
    ISA_FLAGS = {}
EMULATED_DEFS = []
if os.environ.get("TFF_EMULATE_AVX512") == "1" and "avx512vnni" in ISA_FLAGS:
    ISA_FLAGS["avx512vnni"] = ["-mavx2", "-mfma", "-Wno-psabi", "-include",
                               os.path.join(HERE, "tests", "ukernels", "avx512_emu.h")]
    EMULATED_DEFS = [("TFF_EMULATE_AVX512VNNI", "1")]
if os.environ.get("TFF_NO_SIMD") == "1":
    ISA_FLAGS = {}
ALL_ISAS = ("sse41", "avx2", "avx512vnni", "neon", "neondot")

# MSVC: C11 with its atomics (the thread pool; VS 2022 17.5+), no FMA
# contraction (/fp:precise does not contract since VS 2022), and /arch for the
# ISA files (intrinsics need no flag; SSE4.1 has none to give). Only the x86
# ISAs: Windows wheels are AMD64 only. /wd4068: the kernels' `GCC unroll`
# pragmas are hints MSVC does not know.
MSVC_FLAGS = ["/std:c11", "/experimental:c11atomics", "/O2", "/fp:precise", "/W3", "/wd4068"]
MSVC_ISA_FLAGS = {"sse41": [], "avx2": ["/arch:AVX2"], "avx512vnni": ["/arch:AVX512"]}


def isa_of(path):
    """The ISA token of a kernel file name, or None for portable C."""
    parts = os.path.basename(path)[:-2].split("-")
    found = [p for p in parts if p in ALL_ISAS]
    return found[-1] if found else None


def c_sources():
    files = sorted(glob.glob("csrc/**/*.c", recursive=True))
    return [f for f in files if isa_of(f) is None or isa_of(f) in ISA_FLAGS]


def parallel_compile(compile_one, jobs):
    """CCompiler.compile over a thread pool, one source per call (the ~100 C
    files otherwise compile one after another; gcc runs as a subprocess, so
    threads suffice). Objects come back in source order."""

    def compile(sources, *args, **kwargs):
        if jobs < 2 or len(sources) < 2:
            return compile_one(sources, *args, **kwargs)
        with ThreadPoolExecutor(jobs) as pool:
            parts = pool.map(lambda src: compile_one([src], *args, **kwargs), sources)
            return [obj for part in parts for obj in part]

    return compile


class BuildExtPerIsa(build_ext):
    """Compiles each ISA's kernel files with that ISA's flags only."""

    def build_extension(self, ext):
        isa_flags = ISA_FLAGS
        jobs = int(os.environ.get("TFF_BUILD_JOBS", os.cpu_count() or 1))
        if self.compiler.compiler_type == "msvc":
            isa_flags = {isa: MSVC_ISA_FLAGS[isa] for isa in ISA_FLAGS if isa in MSVC_ISA_FLAGS}
            ext.extra_compile_args = MSVC_FLAGS
            ext.extra_link_args = []
            jobs = 1  # MSVCCompiler.compile initializes itself on first use: not thread-safe
        self.compiler.compile = parallel_compile(self.compiler.compile, jobs)
        macros = [("TFF_BUILD_" + isa.upper(), "1") for isa in isa_flags] + EMULATED_DEFS
        ext.define_macros = list(ext.define_macros or []) + macros
        plain, objects = [], []
        by_isa = {}
        for src in ext.sources:
            isa = isa_of(src) if src.endswith(".c") else None
            if isa is None:
                plain.append(src)
            elif isa in isa_flags:
                by_isa.setdefault(isa, []).append(src)
        for isa, srcs in sorted(by_isa.items()):
            objects += self.compiler.compile(
                srcs, output_dir=self.build_temp, macros=ext.define_macros,
                include_dirs=ext.include_dirs, extra_postargs=ext.extra_compile_args + isa_flags[isa],
                depends=ext.depends)
        ext.sources = plain
        ext.extra_objects = list(ext.extra_objects or []) + objects
        super().build_extension(ext)


class BuildPyWithHeaders(build_py):
    """Install the public ABI headers with the package (get_include())."""

    def run(self):
        super().run()
        dst = os.path.join(self.build_lib, "tflite_fast", "include", "tflite_fast")
        os.makedirs(dst, exist_ok=True)
        for h in glob.glob(os.path.join(HERE, "csrc", "include", "tflite_fast", "*.h")):
            shutil.copy(h, dst)


# Without Cython, setuptools silently swaps src/_core.pyx for src/_core.c,
# which is generated, never committed or shipped: say what is
# missing instead, also when that .c predates an edit of the .pyx/.pxd (a
# dev tree's old build output would compile the old code without a word).
try:
    import Cython  # noqa: F401
except ImportError:
    _gen = os.path.join(HERE, "src", "_core.c")
    _srcs = [os.path.join(HERE, "src", f) for f in ("_core.pyx", "_capi.pxd")]
    if not os.path.exists(_gen) or any(os.path.getmtime(f) > os.path.getmtime(_gen)
                                       for f in _srcs if os.path.exists(f)):
        sys.exit("setup.py: Cython>=3.1 is required to build from source "
                 "(src/_core.c is missing or older than src/_core.pyx; "
                 "pip install . installs it; a direct setup.py call needs "
                 "pip install 'Cython>=3.1')")

ext = Extension(
    "tflite_fast._core",
    sources=["src/_core.pyx"] + c_sources(),
    include_dirs=["csrc/include", "csrc/runtime", "csrc/ops", "csrc"],
    extra_compile_args=CFLAGS,
    extra_link_args=LDFLAGS,
    libraries=[] if sys.platform == "win32" else ["m"],  # the C runtime has the math there
    # Headers and kernel bodies: any change rebuilds (setuptools tracks only .c files).
    depends=sorted(glob.glob("csrc/**/*.h", recursive=True)),
)

# Run as a script by pip/setuptools and `python setup.py`; imported (runpy,
# another run_name) by wheels/compile_check.py for the flags and sources.
if __name__ == "__main__":
    setup(
        ext_modules=[ext],
        cmdclass={"build_py": BuildPyWithHeaders, "build_ext": BuildExtPerIsa},
    )
