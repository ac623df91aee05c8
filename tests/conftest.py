"""Shared pytest setup: tests/ on sys.path, the models directory, the `slow` marker and
the hypothesis profile."""

import os
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent

# Child processes (`python -c ...`, `python -m ...`) must import the installed
# tflite_fast, not the source folder of the checkout they may be started in
# (it has no compiled _core): keep the current directory off their sys.path.
os.environ["PYTHONSAFEPATH"] = "1"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

from oracle import MODELS_DIR, shared_models  # noqa: E402  (MODELS_DIR: ../shared/models or $TFLITE_FAST_MODELS)

try:
    from hypothesis import HealthCheck, settings

    # Deterministic in CI: the same examples every run, no per-example deadline
    # (first calls pay interpreter construction and XNNPACK set-up).
    settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("dev", deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
except ImportError:  # hypothesis only needed by the op tests
    pass


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test (deselect with -m 'not slow')")


def model_path(name):
    """Path of a shared model by stem ('mobilenet_v2_int8') or file name."""
    p = MODELS_DIR / (name if name.endswith(".tflite") else name + ".tflite")
    if not p.exists():
        pytest.skip(f"model {p} not found (set TFLITE_FAST_MODELS)")
    return p


@pytest.fixture(scope="session")
def models_dir():
    return MODELS_DIR
