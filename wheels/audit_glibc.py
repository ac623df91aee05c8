#!/usr/bin/env python3
"""Audits the glibc symbol versions every wheel's ELF files need against the
wheel's platform tag.

    python wheels/audit_glibc.py DIR_OR_WHEEL...

For each .whl: each ELF member's versioned undefined symbols are read with
`readelf --dyn-syms` (binutils; a dev tool, not a runtime dependency; unlike
objdump, the host's readelf reads ARM ELF files too). Fails (exit 1)
when
  - the highest GLIBC_x.y needed exceeds the tag's glibc (manylinux_2_Y ->
    2.Y; manylinux2014 -> 2.17, manylinux2010 -> 2.12, manylinux1 -> 2.5),
  - any GLIBCXX_/CXXABI_ version is needed or libstdc++ is linked (the
    extension is C only and must link no C++ runtime),
  - an ELF's machine is not the tag's architecture (x86_64, aarch64, armv7l, i686),
  - a linux_* (unrepaired) tag is found, or no ELF is found in a binary wheel.
musllinux wheels are checked for the C++ runtime only (musl has no symbol
versions). Prints one line per ELF: needed glibc, tag, verdict.
"""
import os
import re
import subprocess
import sys
import tempfile
import zipfile

LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
# ELF e_machine -> the architecture suffix of a platform tag.
MACHINES = {0x3E: "x86_64", 0xB7: "aarch64", 0x28: "armv7l", 0x03: "i686"}
VER = re.compile(r"\b(GLIBC|GLIBCXX|CXXABI)_([0-9][0-9.]*)\b")


def platform_tags(wheel_name):
    """The platform tags of a wheel file name (compressed tag sets split)."""
    plat = wheel_name[:-4].split("-")[-1]
    return plat.split(".")


def tag_glibc(tag):
    """(major, minor) glibc a tag promises, 'musl', 'any', or None (not manylinux)."""
    if tag == "any":
        return "any"
    if tag.startswith("musllinux_"):
        return "musl"
    m = re.match(r"manylinux_(\d+)_(\d+)_", tag)
    if m:
        return int(m.group(1)), int(m.group(2))
    for legacy, ver in LEGACY.items():
        if tag.startswith(legacy + "_"):
            return ver
    return None


def elf_needs(path):
    """(max GLIBC version tuple or None, set of C++ runtime versions, NEEDED libs)."""
    dyn = subprocess.run(["readelf", "--dyn-syms", "-W", path],
                         capture_output=True, text=True, check=True).stdout
    glibc, cxx = None, set()
    for line in dyn.splitlines():
        if " UND " not in line:
            continue
        for kind, ver in VER.findall(line):
            if kind == "GLIBC":
                v = tuple(int(x) for x in ver.split("."))
                glibc = v if glibc is None or v > glibc else glibc
            else:
                cxx.add(kind + "_" + ver)
    hdr = subprocess.run(["readelf", "-d", "-W", path], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", hdr)
    return glibc, cxx, needed


def audit_wheel(whl):
    name = os.path.basename(whl)
    tags = platform_tags(name)
    promised = [tag_glibc(t) for t in tags]
    ok = True
    if any(p is None for p in promised):
        print(f"FAIL {name}: platform tag {'.'.join(tags)} is not manylinux/musllinux")
        return False
    glibc_tags = [p for p in promised if isinstance(p, tuple)]
    # A compressed tag set promises every tag, so the lowest must hold.
    limit = min(glibc_tags) if glibc_tags else None
    n_elf = 0
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(whl) as z:
        for member in z.namelist():
            with z.open(member) as f:
                head = f.read(20)
                if head[:4] != b"\x7fELF":
                    continue
            machine = MACHINES.get(int.from_bytes(head[18:20], "big" if head[5] == 2 else "little"), "?")
            n_elf += 1
            path = z.extract(member, tmp)
            glibc, cxx, needed = elf_needs(path)
            problems = []
            if not all(t == "any" or t.endswith("_" + machine) for t in tags):
                problems.append(f"ELF machine {machine} does not match the tag")
            if cxx:
                problems.append("C++ runtime symbols " + ", ".join(sorted(cxx)))
            if any(lib.startswith("libstdc++") for lib in needed):
                problems.append("links libstdc++")
            if limit is not None and glibc is not None and glibc > limit:
                problems.append(f"needs GLIBC_{'.'.join(map(str, glibc))} > tag's {limit[0]}.{limit[1]}")
            need = "GLIBC_" + ".".join(map(str, glibc)) if glibc else "no GLIBC versions"
            verdict = "FAIL " + "; ".join(problems) if problems else "ok"
            print(f"{name} :: {member}: needs {need}, tag allows "
                  f"{'%d.%d' % limit if limit else 'musl'} -> {verdict}")
            ok = ok and not problems
    if n_elf == 0 and promised != ["any"]:
        print(f"FAIL {name}: binary-tagged wheel without an ELF file")
        ok = False
    return ok


def main(argv):
    wheels = []
    for arg in argv or ["."]:
        if os.path.isdir(arg):
            wheels += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".whl"))
        else:
            wheels.append(arg)
    if not wheels:
        print("no wheels found")
        return 1
    results = [audit_wheel(w) for w in wheels]
    print(f"{sum(results)}/{len(results)} wheels pass")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
