"""TFLite model metadata, without TensorFlow.

    from tflite_fast import metadata
    md = metadata.read("model.tflite")        # or the model's bytes
    if md is not None:
        print(md.name, md.version, md.author)
        print(md.inputs[0].normalization)      # (mean, std) or None
        labels = md.read_file("labels.txt")    # an associated file's bytes
        md.extract("out/")                      # every associated file

The metadata of a .tflite file lives in two places:
  * the model's metadata entry "TFLITE_METADATA": a buffer holding a
    FlatBuffer with file identifier "M001" whose root is tflite-support's
    ModelMetadata table (metadata_schema.fbs: name, description, version,
    per-subgraph input/output TensorMetadata with process units such as
    NormalizationOptions, author, license, associated files,
    min_parser_version);
  * the associated files (label lists, vocabularies), appended to the model
    as a zip archive: the zip's central directory is at the end of the file,
    so the .tflite file is also a valid zip file.

Both are read by a small bounds-checked FlatBuffer reader (struct only; the
runtime depends on numpy alone). A malformed model or metadata buffer raises
ValueError; nothing is trusted.
"""
import contextlib
import io
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

__all__ = ["read", "read_entries", "list_files", "extract", "ModelMetadata", "SubGraphMetadata",
           "TensorMetadata", "AssociatedFile", "ProcessUnit", "METADATA_NAME"]

METADATA_NAME = "TFLITE_METADATA"
METADATA_IDENTIFIER = b"M001"

# AssociatedFileType (metadata_schema.fbs).
FILE_TYPES = {0: "UNKNOWN", 1: "DESCRIPTIONS", 2: "TENSOR_AXIS_LABELS", 3: "TENSOR_VALUE_LABELS",
              4: "TENSOR_AXIS_SCORE_CALIBRATION", 5: "VOCABULARY"}
# ProcessUnitOptions union members, by union type value.
PROCESS_UNIT_TYPES = {1: "NormalizationOptions", 2: "ScoreCalibrationOptions",
                      3: "ScoreThresholdingOptions", 4: "BertTokenizerOptions",
                      5: "SentencePieceTokenizerOptions", 6: "RegexTokenizerOptions"}
# ContentProperties union members.
CONTENT_TYPES = {1: "FeatureProperties", 2: "ImageProperties", 3: "BoundingBoxProperties",
                 4: "AudioProperties"}
COLOR_SPACES = {0: "UNKNOWN", 1: "RGB", 2: "GRAYSCALE"}
SCORE_TRANSFORMS = {0: "IDENTITY", 1: "LOG", 2: "INVERSE_LOGISTIC"}
BOX_TYPES = {0: "UNKNOWN", 1: "BOUNDARIES", 2: "UPPER_LEFT", 3: "CENTER"}
COORDINATE_TYPES = {0: "RATIO", 1: "PIXEL"}


# ---------------------------------------------------------------------------
# A minimal FlatBuffer reader. A table starts with an int32 soffset to its
# vtable (vtable = table - soffset); the vtable holds uint16 vtable size,
# table size, then one uint16 offset per field id (0 = absent). Offsets to
# tables, vectors and strings are uint32 relative to where they are stored;
# a vector or string starts with its uint32 length.
# ---------------------------------------------------------------------------

class _Table:
    __slots__ = ("buf", "pos", "vt", "vt_size", "size")

    def __init__(self, buf: memoryview, pos: int):
        self.buf = buf
        self.pos = pos
        _need(buf, pos, 4, "table")
        self.vt = pos - struct.unpack_from("<i", buf, pos)[0]
        _need(buf, self.vt, 4, "vtable")
        self.vt_size, self.size = struct.unpack_from("<HH", buf, self.vt)
        if self.vt_size < 4 or self.vt_size % 2:
            raise ValueError("metadata: bad vtable size %d at offset %d" % (self.vt_size, self.vt))
        _need(buf, self.vt, self.vt_size, "vtable")
        _need(buf, pos, max(self.size, 4), "table")

    def _field(self, fid: int, width: int) -> int:
        """Absolute position of field `fid` (0 when absent), `width` bytes checked."""
        slot = 4 + 2 * fid
        if slot + 2 > self.vt_size:
            return 0
        off = struct.unpack_from("<H", self.buf, self.vt + slot)[0]
        if off == 0:
            return 0
        if off + width > self.size:
            raise ValueError("metadata: field %d lies outside its table at offset %d" % (fid, self.pos))
        return self.pos + off

    def scalar(self, fid: int, fmt: str, default=0):
        p = self._field(fid, struct.calcsize(fmt))
        return struct.unpack_from("<" + fmt, self.buf, p)[0] if p else default

    def _indirect(self, p: int) -> int:
        target = p + struct.unpack_from("<I", self.buf, p)[0]
        _need(self.buf, target, 4, "offset target")
        return target

    def table(self, fid: int) -> Optional["_Table"]:
        p = self._field(fid, 4)
        return _Table(self.buf, self._indirect(p)) if p else None

    def string(self, fid: int) -> Optional[str]:
        p = self._field(fid, 4)
        return _string_at(self.buf, self._indirect(p)) if p else None

    def _vector(self, fid: int, elem: int) -> Tuple[int, int]:
        """(first element position, length) of a vector field; (0, 0) if absent."""
        p = self._field(fid, 4)
        if not p:
            return 0, 0
        v = self._indirect(p)
        n = struct.unpack_from("<I", self.buf, v)[0]
        _need(self.buf, v + 4, n * elem, "vector")
        return v + 4, n

    def scalars(self, fid: int, fmt: str) -> Optional[list]:
        start, n = self._vector(fid, struct.calcsize(fmt))
        if not start:
            return None
        return list(struct.unpack_from("<%d%s" % (n, fmt), self.buf, start))

    def bytes(self, fid: int) -> Optional[bytes]:
        start, n = self._vector(fid, 1)
        return bytes(self.buf[start:start + n]) if start else None

    def tables(self, fid: int) -> List["_Table"]:
        start, n = self._vector(fid, 4)
        return [_Table(self.buf, self._indirect(start + 4 * i)) for i in range(n)]

    def strings(self, fid: int) -> List[str]:
        start, n = self._vector(fid, 4)
        return [_string_at(self.buf, self._indirect(start + 4 * i)) for i in range(n)]


def _need(buf, pos: int, n: int, what: str) -> None:
    if pos < 0 or n < 0 or pos + n > len(buf):
        raise ValueError("metadata: %s at offset %d (%d bytes) is outside the %d-byte buffer"
                         % (what, pos, n, len(buf)))


def _string_at(buf, pos: int) -> str:
    n = struct.unpack_from("<I", buf, pos)[0]
    _need(buf, pos + 4, n, "string")
    return bytes(buf[pos + 4:pos + 4 + n]).decode("utf-8", "replace")


def _root(buf: memoryview, identifier: Optional[bytes] = None) -> _Table:
    _need(buf, 0, 8 if identifier else 4, "root")
    if identifier is not None and bytes(buf[4:8]) != identifier:
        raise ValueError("metadata: the buffer's file identifier is %r, expected %r"
                         % (bytes(buf[4:8]), identifier))
    return _Table(buf, struct.unpack_from("<I", buf, 0)[0])


# ---------------------------------------------------------------------------
# The model side: schema.fbs Model.metadata -> Metadata(name, buffer) ->
# Buffer.data (or, for models over 2 GB, Buffer.offset/size into the file).
# ---------------------------------------------------------------------------

def _model_bytes(model: Union[str, os.PathLike, bytes, bytearray, memoryview]) -> bytes:
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model)
    with open(os.fspath(model), "rb") as f:
        return f.read()


def read_entries(model) -> Dict[str, bytes]:
    """Every metadata entry of the model (Model.metadata): name -> buffer bytes,
    e.g. "min_runtime_version", "TFLITE_METADATA"."""
    data = _model_bytes(model)
    buf = memoryview(data)
    try:
        root = _root(buf)
        buffers = root.tables(4)  # Model.buffers
        out = {}
        for m in root.tables(6):  # Model.metadata
            name = m.string(0) or ""
            index = m.scalar(1, "I")
            if index >= len(buffers):
                raise ValueError("metadata: entry %r names buffer %d of %d" % (name, index, len(buffers)))
            b = buffers[index]
            content = b.bytes(0)  # Buffer.data
            offset, size = b.scalar(1, "Q"), b.scalar(2, "Q")
            if content is None and offset > 1:  # external buffer, after the FlatBuffer
                _need(buf, offset, size, "buffer %d" % index)
                content = data[offset:offset + size]
            out[name] = content or b""
        return out
    except struct.error as e:  # unpack_from past the end
        raise ValueError("metadata: truncated model (%s)" % e) from None


# ---------------------------------------------------------------------------
# The metadata schema (tflite-support metadata_schema.fbs, field ids in order)
# ---------------------------------------------------------------------------

@dataclass
class AssociatedFile:
    name: str
    description: Optional[str] = None
    type: str = "UNKNOWN"
    locale: Optional[str] = None


@dataclass
class ProcessUnit:
    """type is the ProcessUnitOptions member ("NormalizationOptions", ...);
    options its fields, e.g. {"mean": [127.5], "std": [127.5]}."""
    type: str
    options: dict = field(default_factory=dict)


@dataclass
class TensorMetadata:
    name: Optional[str] = None
    description: Optional[str] = None
    dimension_names: List[str] = field(default_factory=list)
    content: Optional[dict] = None
    process_units: List[ProcessUnit] = field(default_factory=list)
    stats: Optional[dict] = None
    associated_files: List[AssociatedFile] = field(default_factory=list)

    @property
    def normalization(self) -> Optional[Tuple[List[float], List[float]]]:
        """(mean, std) of the first NormalizationOptions: x' = (x - mean) / std."""
        for u in self.process_units:
            if u.type == "NormalizationOptions":
                return u.options.get("mean") or [], u.options.get("std") or []
        return None

    def label_files(self) -> List[AssociatedFile]:
        return [f for f in self.associated_files
                if f.type in ("TENSOR_AXIS_LABELS", "TENSOR_VALUE_LABELS")]


@dataclass
class SubGraphMetadata:
    name: Optional[str] = None
    description: Optional[str] = None
    inputs: List[TensorMetadata] = field(default_factory=list)
    outputs: List[TensorMetadata] = field(default_factory=list)
    associated_files: List[AssociatedFile] = field(default_factory=list)
    input_process_units: List[ProcessUnit] = field(default_factory=list)
    output_process_units: List[ProcessUnit] = field(default_factory=list)


@dataclass
class ModelMetadata:
    name: Optional[str] = None
    description: Optional[str] = None
    version: Optional[str] = None
    subgraphs: List[SubGraphMetadata] = field(default_factory=list)
    author: Optional[str] = None
    license: Optional[str] = None
    associated_files: List[AssociatedFile] = field(default_factory=list)
    min_parser_version: Optional[str] = None
    # The zip archive appended to the model (None when there is none).
    archive: Optional[bytes] = field(default=None, repr=False)

    @property
    def inputs(self) -> List[TensorMetadata]:
        return self.subgraphs[0].inputs if self.subgraphs else []

    @property
    def outputs(self) -> List[TensorMetadata]:
        return self.subgraphs[0].outputs if self.subgraphs else []

    def file_names(self) -> List[str]:
        """Names of the files packed into the model."""
        return _zip_names(self.archive)

    def read_file(self, name: str) -> bytes:
        """The bytes of one packed file (KeyError if there is no such file)."""
        if self.archive is None:
            raise KeyError("the model has no associated files")
        with _zip_errors(), _open_zip(self.archive) as z:
            return z.read(name)

    def extract(self, directory: Union[str, os.PathLike]) -> List[str]:
        """Writes every packed file into `directory`; returns their paths."""
        return _extract(self.archive, directory)


def _file(t: _Table) -> AssociatedFile:
    return AssociatedFile(name=t.string(0) or "", description=t.string(1),
                          type=FILE_TYPES.get(t.scalar(2, "b"), "UNKNOWN"), locale=t.string(3))


def _files(t: _Table, fid: int) -> List[AssociatedFile]:
    return [_file(f) for f in t.tables(fid)]


def _process_unit(t: _Table) -> ProcessUnit:
    kind = t.scalar(0, "B")
    o = t.table(1)
    name = PROCESS_UNIT_TYPES.get(kind, "UNKNOWN(%d)" % kind)
    if o is None:
        return ProcessUnit(name)
    if kind == 1:
        opts = {"mean": o.scalars(0, "f") or [], "std": o.scalars(1, "f") or []}
    elif kind == 2:
        opts = {"score_transformation": SCORE_TRANSFORMS.get(o.scalar(0, "b"), "IDENTITY"),
                "default_score": o.scalar(1, "f", 0.0)}
    elif kind == 3:
        opts = {"global_score_threshold": o.scalar(0, "f", 0.0)}
    elif kind == 4:
        opts = {"vocab_file": _files(o, 0)}
    elif kind == 5:
        opts = {"sentencePiece_model": _files(o, 0), "vocab_file": _files(o, 1)}
    elif kind == 6:
        opts = {"delim_regex_pattern": o.string(0), "vocab_file": _files(o, 1)}
    else:
        opts = {}
    return ProcessUnit(name, opts)


def _content(t: _Table) -> dict:
    kind = t.scalar(0, "B")
    p = t.table(1)
    out = {"type": CONTENT_TYPES.get(kind, "NONE" if kind == 0 else "UNKNOWN(%d)" % kind)}
    if p is not None and kind == 2:
        out["color_space"] = COLOR_SPACES.get(p.scalar(0, "b"), "UNKNOWN")
        size = p.table(1)
        if size is not None:
            out["default_size"] = (size.scalar(0, "I"), size.scalar(1, "I"))
    elif p is not None and kind == 3:
        out["index"] = p.scalars(0, "I") or []
        out["box_type"] = BOX_TYPES.get(p.scalar(1, "b"), "UNKNOWN")
        out["coordinate_type"] = COORDINATE_TYPES.get(p.scalar(2, "b"), "RATIO")
    elif p is not None and kind == 4:
        out["sample_rate"] = p.scalar(0, "I")
        out["channels"] = p.scalar(1, "I")
    r = t.table(2)
    if r is not None:
        out["range"] = (r.scalar(0, "i"), r.scalar(1, "i"))
    return out


def _tensor(t: _Table) -> TensorMetadata:
    content = t.table(3)
    stats = t.table(5)
    return TensorMetadata(
        name=t.string(0), description=t.string(1), dimension_names=t.strings(2),
        content=_content(content) if content is not None else None,
        process_units=[_process_unit(u) for u in t.tables(4)],
        stats=({"max": stats.scalars(0, "f") or [], "min": stats.scalars(1, "f") or []}
               if stats is not None else None),
        associated_files=_files(t, 6))


def _subgraph(t: _Table) -> SubGraphMetadata:
    return SubGraphMetadata(
        name=t.string(0), description=t.string(1),
        inputs=[_tensor(x) for x in t.tables(2)], outputs=[_tensor(x) for x in t.tables(3)],
        associated_files=_files(t, 4),
        input_process_units=[_process_unit(u) for u in t.tables(5)],
        output_process_units=[_process_unit(u) for u in t.tables(6)])


def parse_metadata_buffer(data: bytes) -> ModelMetadata:
    """Parses a TFLITE_METADATA buffer (the "M001" FlatBuffer)."""
    buf = memoryview(bytes(data))
    try:
        r = _root(buf, METADATA_IDENTIFIER)
        return ModelMetadata(
            name=r.string(0), description=r.string(1), version=r.string(2),
            subgraphs=[_subgraph(s) for s in r.tables(3)],
            author=r.string(4), license=r.string(5), associated_files=_files(r, 6),
            min_parser_version=r.string(7))
    except struct.error as e:
        raise ValueError("metadata: truncated TFLITE_METADATA buffer (%s)" % e) from None


# ---------------------------------------------------------------------------
# Associated files: the zip archive appended to the model.
# ---------------------------------------------------------------------------

# What zipfile raises on a damaged archive (bad CRC, unknown compression,
# truncated members, undecodable names).
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError,
               ValueError, struct.error, zlib.error, UnicodeDecodeError)


def _open_zip(archive: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(archive))


@contextlib.contextmanager
def _zip_errors():
    try:
        yield
    except KeyError:
        raise
    except _ZIP_ERRORS as e:
        raise ValueError("metadata: damaged associated-files archive (%s)" % e) from None


def _archive_of(data: bytes) -> Optional[bytes]:
    """The model bytes if they are also a zip archive, else None."""
    try:
        with _open_zip(data) as z:
            z.namelist()
        return data
    except _ZIP_ERRORS:
        return None


def _zip_names(archive: Optional[bytes]) -> List[str]:
    if archive is None:
        return []
    with _zip_errors(), _open_zip(archive) as z:
        return [i.filename for i in z.infolist() if not i.is_dir()]


def _extract(archive: Optional[bytes], directory) -> List[str]:
    """Writes each file under `directory`, by its base name: a packed name
    cannot climb out of the directory ("../x", "/etc/x")."""
    if archive is None:
        return []
    os.makedirs(directory, exist_ok=True)
    paths = []
    with _zip_errors(), _open_zip(archive) as z:
        for info in z.infolist():
            base = os.path.basename(info.filename.replace("\\", "/"))
            if info.is_dir() or base in ("", ".", ".."):
                continue
            path = os.path.join(os.fspath(directory), base)
            with open(path, "wb") as f:
                f.write(z.read(info))
            paths.append(path)
    return paths


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------

def read(model) -> Optional[ModelMetadata]:
    """The metadata of a model (a path or the model's bytes), or None when the
    model has neither a TFLITE_METADATA entry nor associated files.

    ValueError when the model or its metadata buffer is malformed."""
    data = _model_bytes(model)
    entries = read_entries(data)
    archive = _archive_of(data)
    if METADATA_NAME in entries:
        md = parse_metadata_buffer(entries[METADATA_NAME])
    elif archive is not None:
        md = ModelMetadata()
    else:
        return None
    md.archive = archive
    return md


def list_files(model) -> List[str]:
    """Names of the associated files packed into the model."""
    return _zip_names(_archive_of(_model_bytes(model)))


def extract(model, directory) -> List[str]:
    """Extracts the model's associated files into `directory`; returns the paths."""
    return _extract(_archive_of(_model_bytes(model)), directory)
