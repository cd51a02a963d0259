"""Polars Series (exported only through __arrow_c_stream__, strings and binary as views)."""

import pytest

pl = pytest.importorskip("polars")

import utf8_tools as u  # noqa: E402
from conftest import SAMPLES  # noqa: E402

ROWS = SAMPLES + [None, b"x" * 30 + b"\xff"]


def test_series_has_only_the_stream_interface():
    s = pl.Series("raw", ROWS, dtype=pl.Binary)
    assert hasattr(s, "__arrow_c_stream__")
    assert not hasattr(s, "__arrow_c_array__")


def test_binary_series():
    s = pl.Series("raw", ROWS, dtype=pl.Binary)
    out = pl.Series(u.repair(s))
    assert out.dtype == pl.String
    assert out.to_list() == [None if r is None else r.decode("utf-8", "replace") for r in ROWS]
    assert pl.Series(u.is_valid(s)).to_list() == [None if r is None else u.is_valid(r) for r in ROWS]
    counts = pl.Series(u.count(s)).to_list()
    assert counts == [None if r is None else u.count(r) for r in ROWS]


def test_string_series_is_unchanged():
    s = pl.Series("text", ["caf\u00e9", None, "\u4e16\u754c" * 5])
    assert pl.Series(u.repair(s)).to_list() == s.to_list()
    assert pl.Series(u.is_valid(s)).to_list() == [True, None, True]


def test_map_batches_in_a_lazy_query():
    df = pl.DataFrame({"raw": pl.Series(ROWS, dtype=pl.Binary), "n": range(len(ROWS))})
    out = (
        df.lazy()
        .with_columns(
            text=pl.col("raw").map_batches(lambda s: pl.Series(u.repair(s)), return_dtype=pl.String),
            ok=pl.col("raw").map_batches(lambda s: pl.Series(u.is_valid(s)), return_dtype=pl.Boolean),
        )
        .collect()
    )
    assert out["text"].to_list() == [None if r is None else r.decode("utf-8", "replace") for r in ROWS]
    assert out["ok"].to_list() == [None if r is None else u.is_valid(r) for r in ROWS]


def test_chunked_series():
    a = pl.Series(ROWS[:5], dtype=pl.Binary)
    b = pl.Series(ROWS[5:], dtype=pl.Binary)
    s = a.append(b)
    assert s.n_chunks() == 2
    out = u.repair(s)
    assert out.num_chunks == 2
    assert pl.Series(out).to_list() == [None if r is None else r.decode("utf-8", "replace") for r in ROWS]
