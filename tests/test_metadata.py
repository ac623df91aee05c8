"""tflite_fast.metadata: the TFLITE_METADATA FlatBuffer and the associated
files zipped onto the model, on models built here.

The metadata buffer is written with the flatbuffers package's Builder, field by
field in the order of tflite-support's metadata_schema.fbs, as its
MetadataPopulator writes it; the label files are appended with zipfile, as
the populator packs them (the .tflite file stays a valid model and becomes a
valid zip).
"""
import io
import struct
import zipfile

import flatbuffers
import numpy as np
import pytest

import tflite_fast.interpreter as tfl
from model_builder import ModelBuilder
from tflite_fast import metadata

LABELS = "background\ncat\ndog\n"
LABELS_FR = "fond\nchat\nchien\n"


# ---- a writer for the metadata schema (test side only) ----------------------

class MetaWriter:
    """Builds ModelMetadata tables with flatbuffers.Builder; each helper returns
    the offset of what it built. Field ids follow metadata_schema.fbs."""

    def __init__(self):
        self.b = flatbuffers.Builder(1024)

    def _table(self, fields):
        """fields: list of (id, kind, value) with kind 'off' (offset), 'b' (int8),
        'B' (uint8), 'f' (float32), 'I' (uint32), 'i' (int32)."""
        b = self.b
        b.StartObject(max((f for f, _, _ in fields), default=-1) + 1)
        for fid, kind, value in fields:
            if value is None:
                continue
            if kind == "off":
                b.PrependUOffsetTRelativeSlot(fid, value, 0)
            elif kind == "b":
                b.PrependInt8Slot(fid, value, 0)
            elif kind == "B":
                b.PrependUint8Slot(fid, value, 0)
            elif kind == "f":
                b.PrependFloat32Slot(fid, value, 0.0)
            elif kind == "I":
                b.PrependUint32Slot(fid, value, 0)
            elif kind == "i":
                b.PrependInt32Slot(fid, value, 0)
        return b.EndObject()

    def s(self, text):
        return None if text is None else self.b.CreateString(text)

    def vec(self, offsets):
        b = self.b
        b.StartVector(4, len(offsets), 4)
        for o in reversed(offsets):
            b.PrependUOffsetTRelative(o)
        return b.EndVector()

    def floats(self, values):
        return self.b.CreateNumpyVector(np.asarray(values, dtype=np.float32))

    def file(self, name, description=None, ftype=0, locale=None):
        n, d, loc = self.s(name), self.s(description), self.s(locale)
        return self._table([(0, "off", n), (1, "off", d), (2, "b", ftype), (3, "off", loc)])

    def normalization(self, mean, std):
        m, s = self.floats(mean), self.floats(std)
        opts = self._table([(0, "off", m), (1, "off", s)])
        return self._table([(0, "B", 1), (1, "off", opts)])  # ProcessUnit{options_type, options}

    def thresholding(self, threshold):
        opts = self._table([(0, "f", threshold)])
        return self._table([(0, "B", 3), (1, "off", opts)])

    def image_content(self, color_space, width, height):
        size = self._table([(0, "I", width), (1, "I", height)])
        props = self._table([(0, "b", color_space), (1, "off", size)])
        return self._table([(0, "B", 2), (1, "off", props)])  # Content{type, properties}

    def tensor(self, name, description=None, process_units=(), files=(), content=None,
               dimension_names=None, stats=None):
        n, d = self.s(name), self.s(description)
        dims = self.vec([self.s(x) for x in dimension_names]) if dimension_names else None
        pu = self.vec(list(process_units)) if process_units else None
        fv = self.vec(list(files)) if files else None
        st = None
        if stats is not None:
            mx, mn = self.floats(stats[0]), self.floats(stats[1])
            st = self._table([(0, "off", mx), (1, "off", mn)])
        return self._table([(0, "off", n), (1, "off", d), (2, "off", dims), (3, "off", content),
                            (4, "off", pu), (5, "off", st), (6, "off", fv)])

    def subgraph(self, inputs, outputs, name=None):
        n = self.s(name)
        iv, ov = self.vec(inputs), self.vec(outputs)
        return self._table([(0, "off", n), (2, "off", iv), (3, "off", ov)])

    def model(self, name, description, version, subgraphs, author, license_, files=(),
              min_parser_version="1.0.0"):
        n, d, v = self.s(name), self.s(description), self.s(version)
        sv = self.vec(subgraphs)
        a, lic = self.s(author), self.s(license_)
        fv = self.vec(list(files)) if files else None
        mpv = self.s(min_parser_version)
        root = self._table([(0, "off", n), (1, "off", d), (2, "off", v), (3, "off", sv),
                            (4, "off", a), (5, "off", lic), (6, "off", fv), (7, "off", mpv)])
        self.b.Finish(root, file_identifier=b"M001")
        return bytes(self.b.Output())


def classifier_metadata():
    w = MetaWriter()
    norm = w.normalization([127.5], [127.5])
    content = w.image_content(1, 4, 4)
    image = w.tensor("image", "Input image, RGB 0..255", [norm], content=content,
                     dimension_names=["batch", "height", "width", "channels"])
    labels = w.file("labels.txt", "Class names", 2)
    labels_fr = w.file("labels_fr.txt", "Noms des classes", 2, "fr")
    thr = w.thresholding(0.25)
    probs = w.tensor("probability", "Class probabilities", [thr], files=[labels, labels_fr],
                     stats=([1.0], [0.0]))
    sg = w.subgraph([image], [probs], name="classifier")
    readme = w.file("readme.md", "About the model", 1)
    return w.model("Tiny classifier", "Classifies 4x4 images into 3 classes.", "v2.1", [sg],
                   "tflite_fast tests", "Apache-2.0", files=[readme])


def tiny_model(meta=None, extra_entries=()):
    b = ModelBuilder()
    x = b.tensor("image", [1, 4, 4, 3], np.float32)
    y = b.tensor("flat", [1, 48], np.float32)
    shape = b.const("shape", np.array([1, 48], dtype=np.int32))
    b.op("RESHAPE", [x, shape], [y], newShape=[1, 48])
    b.inputs([x])
    b.outputs([y])
    if meta is not None:
        b.metadata("TFLITE_METADATA", meta)
    for name, data in extra_entries:
        b.metadata(name, data)
    return b.build()


def pack_files(model, files):
    """Appends `files` (name -> bytes) as a zip archive, like the populator."""
    out = io.BytesIO()
    out.write(model)
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_STORED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.fixture(scope="module")
def model_with_metadata():
    model = tiny_model(classifier_metadata(), [("min_runtime_version", b"1.5.0")])
    return pack_files(model, {"labels.txt": LABELS, "labels_fr.txt": LABELS_FR,
                              "readme.md": "# tiny\n"})


# ---- tests ---------------------------------------------------------------------

def test_model_fields(model_with_metadata):
    md = metadata.read(model_with_metadata)
    assert md.name == "Tiny classifier"
    assert md.description == "Classifies 4x4 images into 3 classes."
    assert md.version == "v2.1"
    assert md.author == "tflite_fast tests"
    assert md.license == "Apache-2.0"
    assert md.min_parser_version == "1.0.0"
    assert [f.name for f in md.associated_files] == ["readme.md"]
    assert md.associated_files[0].type == "DESCRIPTIONS"


def test_tensor_fields(model_with_metadata):
    md = metadata.read(model_with_metadata)
    assert len(md.subgraphs) == 1 and md.subgraphs[0].name == "classifier"
    (image,), (probs,) = md.inputs, md.outputs
    assert image.name == "image" and image.description == "Input image, RGB 0..255"
    assert image.dimension_names == ["batch", "height", "width", "channels"]
    assert image.normalization == ([127.5], [127.5])
    assert image.content == {"type": "ImageProperties", "color_space": "RGB", "default_size": (4, 4)}
    assert probs.normalization is None
    assert probs.process_units[0].type == "ScoreThresholdingOptions"
    assert probs.process_units[0].options == {"global_score_threshold": 0.25}
    assert probs.stats == {"max": [1.0], "min": [0.0]}
    labels = probs.label_files()
    assert [(f.name, f.type, f.locale) for f in labels] == [
        ("labels.txt", "TENSOR_AXIS_LABELS", None), ("labels_fr.txt", "TENSOR_AXIS_LABELS", "fr")]


def test_associated_files(model_with_metadata, tmp_path):
    md = metadata.read(model_with_metadata)
    assert sorted(md.file_names()) == ["labels.txt", "labels_fr.txt", "readme.md"]
    assert md.read_file("labels.txt").decode().splitlines() == ["background", "cat", "dog"]
    paths = md.extract(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["labels.txt", "labels_fr.txt", "readme.md"]
    assert len(paths) == 3
    assert (tmp_path / "labels_fr.txt").read_text() == LABELS_FR
    assert sorted(metadata.list_files(model_with_metadata)) == ["labels.txt", "labels_fr.txt", "readme.md"]
    with pytest.raises(KeyError):
        md.read_file("missing.txt")


def test_from_path_and_entries(model_with_metadata, tmp_path):
    p = tmp_path / "m.tflite"
    p.write_bytes(model_with_metadata)
    assert metadata.read(p).name == "Tiny classifier"
    assert metadata.read(str(p)).version == "v2.1"
    entries = metadata.read_entries(p)
    assert entries["min_runtime_version"] == b"1.5.0"
    assert entries["TFLITE_METADATA"][4:8] == b"M001"


def test_model_with_files_still_runs(model_with_metadata):
    """Appending the zip keeps the model loadable (by us and by the oracle)."""
    it = tfl.Interpreter(model_content=model_with_metadata)
    it.allocate_tensors()
    x = np.arange(48, dtype=np.float32).reshape(1, 4, 4, 3)
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(it.get_output_details()[0]["index"]), x.reshape(1, 48))
    assert "TFLITE_METADATA" in it._interpreter._metadata()


def test_no_metadata():
    assert metadata.read(tiny_model()) is None
    assert metadata.list_files(tiny_model()) == []


def test_files_without_metadata_buffer(tmp_path):
    md = metadata.read(pack_files(tiny_model(), {"labels.txt": LABELS}))
    assert md is not None and md.name is None
    assert md.file_names() == ["labels.txt"]


def test_extract_cannot_escape(tmp_path):
    model = pack_files(tiny_model(classifier_metadata()), {"../evil.txt": "x", "/abs/evil2.txt": "y"})
    out = tmp_path / "out"
    metadata.extract(model, out)
    assert sorted(p.name for p in out.iterdir()) == ["evil.txt", "evil2.txt"]
    assert not (tmp_path / "evil.txt").exists()


def test_wrong_identifier():
    meta = bytearray(classifier_metadata())
    meta[4:8] = b"XXXX"
    with pytest.raises(ValueError, match="identifier"):
        metadata.read(tiny_model(bytes(meta)))


def test_malformed_metadata_never_crashes():
    """Every truncation and many byte flips of the metadata buffer: a result or
    ValueError, nothing else."""
    meta = classifier_metadata()
    rng = np.random.default_rng(0)
    trials = [meta[:n] for n in range(0, len(meta), 3)]
    for _ in range(300):
        m = bytearray(meta)
        for _ in range(int(rng.integers(1, 4))):
            m[int(rng.integers(len(m)))] = int(rng.integers(256))
        trials.append(bytes(m))
    outcomes = {"ok": 0, "error": 0}
    for t in trials:
        try:
            metadata.parse_metadata_buffer(t)
            outcomes["ok"] += 1
        except ValueError as e:
            assert str(e)
            outcomes["error"] += 1
    assert outcomes["error"] > 0 and outcomes["ok"] > 0


def test_malformed_model_never_crashes(model_with_metadata):
    for n in list(range(0, 64)) + list(range(64, len(model_with_metadata), 97)):
        try:
            metadata.read(model_with_metadata[:n])
        except ValueError as e:
            assert str(e)


def test_absent_fields_and_unknown_union():
    """A minimal table (only a name) and a process unit of an unknown union type."""
    w = MetaWriter()
    unknown = w._table([(0, "B", 42)])
    t = w.tensor("x", process_units=[unknown])
    sg = w.subgraph([t], [])
    buf = w.model("m", None, None, [sg], None, None, min_parser_version=None)
    md = metadata.parse_metadata_buffer(buf)
    assert md.name == "m" and md.description is None and md.version is None
    assert md.inputs[0].process_units[0].type == "UNKNOWN(42)"
    assert md.outputs == []


def test_reader_bounds():
    with pytest.raises(ValueError):
        metadata.parse_metadata_buffer(b"")
    with pytest.raises(ValueError):
        metadata.parse_metadata_buffer(struct.pack("<I", 1 << 30) + b"M001")
