"""wheels/audit_glibc.py: the tag rules, and that it fails a wheel whose ELF
needs a newer glibc than its tag promises (fake wheels around a system ELF)."""
import os
import platform
import shutil
import subprocess
import sys
import zipfile

import pytest

WHEELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "wheels")
sys.path.insert(0, WHEELS)
import audit_glibc  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("readelf") is None or not sys.platform.startswith("linux"),
    reason="needs binutils readelf on Linux")


@pytest.mark.parametrize("tag,want", [
    ("manylinux2014_x86_64", (2, 17)),
    ("manylinux_2_17_aarch64", (2, 17)),
    ("manylinux_2_31_armv7l", (2, 31)),
    ("manylinux1_x86_64", (2, 5)),
    ("musllinux_1_2_x86_64", "musl"),
    ("any", "any"),
    ("linux_x86_64", None),
])
def test_tag_glibc(tag, want):
    assert audit_glibc.tag_glibc(tag) == want


def fake_wheel(tmp_path, plat, elf):
    path = tmp_path / f"fake-0.1-cp311-cp311-{plat}.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.write(elf, "fake/_x.so")
    return str(path)


def needed_glibc(elf):
    glibc, _, _ = audit_glibc.elf_needs(elf)
    return glibc


def test_audit_checks_symbol_versions_against_tag(tmp_path):
    elf = shutil.which("true")
    need = needed_glibc(elf)
    if need is None or need <= (2, 17):
        pytest.skip("this system's `true` needs no glibc newer than 2.17")
    arch = platform.machine()
    if arch not in audit_glibc.MACHINES.values():
        pytest.skip(f"no manylinux tag rule for {arch}")
    other = "aarch64" if arch != "aarch64" else "x86_64"
    low = fake_wheel(tmp_path, f"manylinux2014_{arch}", elf)
    high = fake_wheel(tmp_path, f"manylinux_{need[0]}_{need[1]}_{arch}", elf)
    assert not audit_glibc.audit_wheel(low)
    assert audit_glibc.audit_wheel(high)
    assert not audit_glibc.audit_wheel(fake_wheel(tmp_path, f"linux_{arch}", elf))
    wrong_arch = fake_wheel(tmp_path, f"manylinux_{need[0]}_{need[1]}_{other}", elf)
    assert not audit_glibc.audit_wheel(wrong_arch)
    # The command line: non-zero exit on any failing wheel in a folder.
    r = subprocess.run([sys.executable, os.path.join(WHEELS, "audit_glibc.py"), str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "FAIL" in r.stdout
