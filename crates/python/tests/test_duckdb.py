"""DuckDB: the functions as vectorized (Arrow) Python UDFs."""

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")

import utf8_tools as u  # noqa: E402
from conftest import SAMPLES  # noqa: E402

ROWS = SAMPLES + [None, b"x" * 30 + b"\xff"]


@pytest.fixture
def con():
    c = duckdb.connect()
    c.create_function("utf8_repair", lambda col: u.repair(col).to_pyarrow(), ["BLOB"], "VARCHAR",
                      type="arrow")
    c.create_function("utf8_is_valid", lambda col: u.is_valid(col).to_pyarrow(), ["BLOB"],
                      "BOOLEAN", type="arrow")
    c.create_function("utf8_errors", lambda col: pa.chunked_array(
                          [c.field(0) for c in u.count(col, fields=["errors"]).to_pyarrow().chunks],
                          pa.int64()),
                      ["BLOB"], "BIGINT", type="arrow")
    c.execute("CREATE TABLE t (i INTEGER, raw BLOB)")
    c.executemany("INSERT INTO t VALUES (?, ?)", [(i, r) for i, r in enumerate(ROWS)])
    return c


def test_repair_udf(con):
    got = con.execute(
        "SELECT utf8_repair(raw), utf8_is_valid(raw), utf8_errors(raw) FROM t ORDER BY i"
    ).fetchall()
    assert [g[0] for g in got] == [None if r is None else r.decode("utf-8", "replace") for r in ROWS]
    assert [g[1] for g in got] == [None if r is None else u.is_valid(r) for r in ROWS]
    assert [g[2] for g in got] == [None if r is None else u.count(r)["errors"] for r in ROWS]


def test_many_vectors(con):
    # More rows than one DuckDB vector (2048): the UDF is called once per chunk.
    con.execute("CREATE TABLE big AS SELECT i, CASE WHEN i % 7 = 0 THEN '\\xFF'::BLOB "
                "ELSE ('row ' || i)::BLOB END AS raw FROM range(10000) r(i)")
    got = con.execute("SELECT i, utf8_repair(raw) FROM big ORDER BY i").fetchall()
    assert got == [(i, "\ufffd" if i % 7 == 0 else f"row {i}") for i in range(10000)]


def test_arrow_result_of_a_query(con):
    # A query's Arrow result (a pyarrow Table's column, chunked) taken directly.
    col = con.execute("SELECT raw FROM t ORDER BY i").to_arrow_table().column("raw")
    assert pa.chunked_array(u.repair(col)).to_pylist() == [
        None if r is None else r.decode("utf-8", "replace") for r in ROWS
    ]
