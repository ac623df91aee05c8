"""The extension build only (metadata lives in pyproject.toml).

Every C file under csrc/ is compiled into the one extension module
tflite_fast._core. Switches (environment):
  TFF_DEBUG=1     -O0 -g, assertions on
  TFF_SANITIZE=1  ASan + UBSan, -fno-sanitize-recover
Per-ISA flags: a file whose name carries an ISA token (__sse41, __avx2, ...)
will get that ISA's flags only (see ISA_FLAGS) when SIMD kernels land.
"""
import glob
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))

# -ffp-contract=off: fp32 requantization must not be fused into an FMA
# (docs/numerics.md §1.14); float results stay the same on every ISA.
CFLAGS = ["-std=c11", "-D_GNU_SOURCE", "-O2", "-ffp-contract=off", "-fno-math-errno",
          "-Wall", "-Wno-unused-function", "-fvisibility=hidden"]
LDFLAGS = []
if os.environ.get("TFF_DEBUG") == "1":
    CFLAGS += ["-O0", "-g", "-UNDEBUG"]
if os.environ.get("TFF_SANITIZE") == "1":
    san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"]
    CFLAGS += san
    LDFLAGS += san

ISA_FLAGS = {}  # filled by the SIMD issue: {"avx2": ["-mavx2", "-mfma"], ...}


def c_sources():
    files = sorted(glob.glob("csrc/**/*.c", recursive=True))
    return [f for f in files if "/tests/" not in f]


class BuildPyWithHeaders(build_py):
    """Install the public ABI headers with the package (get_include())."""

    def run(self):
        super().run()
        dst = os.path.join(self.build_lib, "tflite_fast", "include", "tflite_fast")
        os.makedirs(dst, exist_ok=True)
        for h in glob.glob(os.path.join(HERE, "csrc", "include", "tflite_fast", "*.h")):
            shutil.copy(h, dst)


ext = Extension(
    "tflite_fast._core",
    sources=["src/_core.pyx"] + c_sources(),
    include_dirs=["csrc/include", "csrc/runtime", "csrc/ops"],
    extra_compile_args=CFLAGS,
    extra_link_args=LDFLAGS,
    libraries=["m"],
)

setup(
    ext_modules=[ext],
    cmdclass={"build_py": BuildPyWithHeaders},
)
