"""The PyCapsule interface with producers other than pyarrow: nanoarrow and arro3."""

import pytest

from conftest import SAMPLES

import utf8_tools as u

ROWS = SAMPLES + [None]
EXPECTED = [None if r is None else r.decode("utf-8", "replace") for r in ROWS]


def test_nanoarrow():
    na = pytest.importorskip("nanoarrow")
    arr = na.c_array(ROWS, na.binary())
    assert list(na.Array(u.repair(arr)).iter_py()) == EXPECTED
    stream = na.ArrayStream(na.c_array(ROWS, na.binary()))
    out = u.repair(stream)
    assert isinstance(out, u.ChunkedArray)
    assert list(na.Array(out).iter_py()) == EXPECTED


def test_arro3():
    a3 = pytest.importorskip("arro3.core")
    na = pytest.importorskip("nanoarrow")
    arr = a3.Array.from_arrow(na.c_array(ROWS, na.binary()))
    assert a3.Array.from_arrow(u.repair(arr)).to_pylist() == EXPECTED
    chunked = a3.ChunkedArray([arr, arr])
    assert a3.ChunkedArray.from_arrow(u.repair(chunked)).to_pylist() == EXPECTED * 2
