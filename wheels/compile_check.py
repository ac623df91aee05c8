"""Compiles every C file of csrc/ for another platform, without Python headers
or a link: the portability check for targets this machine cannot build wheels
for (Windows through mingw-w64, macOS-like clang targets).

    python wheels/compile_check.py CC PLATFORM [EXTRA_FLAG...]
    python wheels/compile_check.py x86_64-w64-mingw32-gcc win-amd64
    python wheels/compile_check.py clang linux-aarch64 --target=aarch64-linux-gnu

PLATFORM is a sysconfig platform name; setup.py then picks that target's
per-ISA files and flags (exactly what a wheel build of it compiles). Warnings
are errors. Exit status 1 when any file fails; the compiler output says why.
"""
import os
import runpy
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cc, platform, extra = argv[1], argv[2], argv[3:]
    os.environ["_PYTHON_HOST_PLATFORM"] = platform
    os.chdir(ROOT)
    cfg = runpy.run_path("setup.py", run_name="compile_check")
    ext = cfg["ext"]
    macros = ["-DTFF_BUILD_%s=1" % isa.upper() for isa in cfg["ISA_FLAGS"]]
    # Release flags minus the link-time ones, plus -Werror.
    flags = [f for f in cfg["CFLAGS"] if f != "-fvisibility=hidden"] + ["-Werror"] + extra
    includes = ["-I" + d for d in ext.include_dirs]
    sources = [s for s in ext.sources if s.endswith(".c")]

    with tempfile.TemporaryDirectory() as out:
        def compile_one(src):
            isa = cfg["isa_of"](src)
            obj = os.path.join(out, src.replace(os.sep, "_") + ".o")
            cmd = [cc, *flags, *(cfg["ISA_FLAGS"][isa] if isa else []), *macros, *includes,
                   "-c", src, "-o", obj]
            r = subprocess.run(cmd, capture_output=True, text=True)
            return src, r.returncode, r.stdout + r.stderr

        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            results = list(pool.map(compile_one, sources))
    failed = [(src, log) for src, rc, log in results if rc != 0]
    for src, log in failed:
        print("FAILED %s\n%s" % (src, log))
    print("compile_check %s %s: %d files, %d failed (ISAs: %s)"
          % (cc, platform, len(sources), len(failed), ", ".join(cfg["ISA_FLAGS"]) or "none"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
