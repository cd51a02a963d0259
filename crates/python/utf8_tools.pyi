"""UTF-8 validation, repair and counting over bytes and Arrow arrays (utf8-codec)."""

from collections.abc import Buffer, Sequence
from typing import Any, Literal, Protocol, TypedDict, overload

__version__: str

class _ArrowArrayExportable(Protocol):
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

class _ArrowStreamExportable(Protocol):
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

class Array:
    """An Arrow array made by utf8_tools; exports the Arrow PyCapsule interface."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...
    def __len__(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def null_count(self) -> int: ...
    def to_pyarrow(self) -> Any: ...
    def to_pylist(self) -> list[Any]: ...

class ChunkedArray:
    """A chunked Arrow array made by utf8_tools (for chunked or stream input)."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...
    def __len__(self) -> int: ...
    @property
    def num_chunks(self) -> int: ...
    def chunk(self, i: int) -> Array: ...
    @property
    def type(self) -> str: ...
    def to_pyarrow(self) -> Any: ...
    def to_pylist(self) -> list[Any]: ...

class Error(TypedDict):
    offset: int
    length: int
    kind: Literal[
        "overlong", "surrogate", "out-of-range", "invalid-byte",
        "unexpected-continuation", "truncated", "unexpected-end",
    ]

Practice = Literal["maximal-subpart", "per-byte", "per-sequence"]
RepairAction = Literal["replace", "delete", "escape"]
CountField = Literal["lines", "words", "chars", "bytes", "errors"]

@overload
def is_valid(data: bytes | bytearray | memoryview | Buffer, *, threads: int = 1) -> bool: ...
@overload
def is_valid(data: _ArrowArrayExportable, *, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def is_valid(data: _ArrowStreamExportable, *, threads: int = 1) -> ChunkedArray: ...
@overload
def valid_up_to(data: bytes | bytearray | memoryview | Buffer, *, threads: int = 1) -> int: ...
@overload
def valid_up_to(data: _ArrowArrayExportable, *, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def valid_up_to(data: _ArrowStreamExportable, *, threads: int = 1) -> ChunkedArray: ...
@overload
def errors(data: bytes | bytearray | memoryview | Buffer, *, threads: int = 1) -> list[Error]: ...
@overload
def errors(data: _ArrowArrayExportable, *, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def errors(data: _ArrowStreamExportable, *, threads: int = 1) -> ChunkedArray: ...
@overload
def repair(
    data: bytes | bytearray | memoryview | Buffer,
    *,
    practice: Practice = "maximal-subpart",
    action: RepairAction = "replace",
    replacement: str | None = None,
    threads: int = 1,
) -> str: ...
@overload
def repair(
    data: _ArrowArrayExportable,
    *,
    practice: Practice = "maximal-subpart",
    action: RepairAction = "replace",
    replacement: str | None = None,
    threads: int = 1,
) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def repair(
    data: _ArrowStreamExportable,
    *,
    practice: Practice = "maximal-subpart",
    action: RepairAction = "replace",
    replacement: str | None = None,
    threads: int = 1,
) -> ChunkedArray: ...
@overload
def count(
    data: bytes | bytearray | memoryview | Buffer, *, fields: Sequence[CountField] | None = None, threads: int = 1
) -> dict[str, int]: ...
@overload
def count(data: _ArrowArrayExportable, *, fields: Sequence[CountField] | None = None, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def count(
    data: _ArrowStreamExportable, *, fields: Sequence[CountField] | None = None, threads: int = 1
) -> ChunkedArray: ...

class Detected(TypedDict):
    encoding: str | None
    evidence: Literal["byte order mark", "valid UTF-8", "detected", "binary"]

@overload
def detect(data: bytes | bytearray | memoryview | Buffer, *, threads: int = 1) -> Detected: ...
@overload
def detect(data: _ArrowArrayExportable, *, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def detect(data: _ArrowStreamExportable, *, threads: int = 1) -> ChunkedArray: ...
@overload
def decode(data: bytes | bytearray | memoryview | Buffer, encoding: str = "auto", *, threads: int = 1) -> str: ...
@overload
def decode(data: _ArrowArrayExportable, encoding: str = "auto", *, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def decode(data: _ArrowStreamExportable, encoding: str = "auto", *, threads: int = 1) -> ChunkedArray: ...
@overload
def fix_mojibake(text: str, *, threads: int = 1) -> str: ...
@overload
def fix_mojibake(text: _ArrowArrayExportable, *, threads: int = 1) -> Array | ChunkedArray: ...  # ChunkedArray when threads > 1
@overload
def fix_mojibake(text: _ArrowStreamExportable, *, threads: int = 1) -> ChunkedArray: ...
