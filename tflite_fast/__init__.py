"""tflite_fast: a fast, small, drop-in replacement for tflite_runtime.

    import tflite_fast.interpreter as tflite
    interpreter = tflite.Interpreter(model_path="model.tflite")
"""
import os as _os

__version__ = "0.1.0"


def get_include() -> str:
    """Directory of the installed C headers (the TFLite-compatible ABI)."""
    return _os.path.join(_os.path.dirname(__file__), "include")


def default_model_path() -> str:
    """The small model bundled with the package (used by `tflite-fast run`)."""
    return _os.path.join(_os.path.dirname(__file__), "models", "small_cnn_int8.tflite")


def show_config() -> None:
    """Prints the compiled, detected and effective SIMD paths (ISAs)."""
    from ._core import cpu_config

    compiled, detected, effective = cpu_config()
    print("tflite_fast %s" % __version__)
    print("  compiled ISAs:  %s" % (", ".join(compiled) or "scalar only"))
    print("  detected ISAs:  %s" % (", ".join(detected) or "none"))
    print("  effective ISAs: %s" % (", ".join(effective) or "scalar only"))
    print("  disable with TFLITE_FAST_DISABLE_ISA=%s" % _os.environ.get("TFLITE_FAST_DISABLE_ISA", "<unset>"))
