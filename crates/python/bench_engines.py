"""Throughput of repair on one core in each engine: the figures of docs/python/*.md.

    python crates/python/bench_engines.py [--rows N] [--engines polars,duckdb,spark,ray]

The column is bench.py's: N lines (1 M by default) of the Rust sources under
~/.cargo/registry/src, 1% of rows damaged. Each engine runs the recipe of its docs page on
one core (Spark local[1], Ray num_cpus=1, Polars and DuckDB single-threaded) and the values
are checked against CPython's decoding; the time is the whole query (engine overhead
included), the best of three after a warm-up run.
"""

import argparse
import os
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def best_of(f, n=3):
    f()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def fix(arr, loop):
    """The repair of one Arrow column: utf8_tools, or (loop) CPython's decoder row by row."""
    if loop:
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        return pa.array([None if b is None else b.decode("utf-8", "replace")
                         for b in arr.to_pylist()], pa.string())
    import utf8_tools

    return utf8_tools.repair(arr).to_pyarrow()


def run_polars(table, expected, loop):
    import polars as pl

    import utf8_tools

    df = pl.from_arrow(table)
    def q():
        return df.lazy().select(
            # utf8_tools takes the Series itself (its Arrow stream); the loop needs Python bytes.
            pl.col("raw").map_batches(
                lambda s: pl.Series(fix(s.to_arrow(), True) if loop else utf8_tools.repair(s)),
                                      return_dtype=pl.String)
        ).collect()
    assert q()["raw"].to_list() == expected
    return best_of(q)


def run_duckdb(table, expected, loop):
    import duckdb

    con = duckdb.connect(config={"threads": 1})
    con.create_function("utf8_repair", lambda col: fix(col, loop),
                        ["BLOB"], "VARCHAR", type="arrow")
    con.register("t", table)
    def q():
        return con.sql("SELECT utf8_repair(raw) AS text FROM t").to_arrow_table()
    assert q().column("text").to_pylist() == expected
    return best_of(q)


def run_spark(path, expected, loop):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "4g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    def repair_batches(batches):
        import pyarrow as pa

        for b in batches:
            yield pa.RecordBatch.from_arrays([fix(b.column("raw"), loop)], names=["text"])

    df = spark.read.parquet(path).select("raw")
    out = df.mapInArrow(repair_batches, "text string")
    assert [r.text for r in out.collect()] == expected
    # The job without collecting to the driver: the noop sink.
    t = best_of(lambda: out.write.mode("overwrite").format("noop").save())
    spark.stop()
    return t


def run_ray(path, expected, loop):
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.path.dirname(os.path.abspath(__file__))}})

    def repair_batch(batch):
        import pyarrow as pa

        return pa.table({"text": fix(batch.column("raw"), loop)})

    ds = ray.data.read_parquet(path)
    def q():
        return ds.map_batches(repair_batch, batch_format="pyarrow").materialize()
    got = pa.concat_tables(ray.get(q().to_arrow_refs())).column("text").to_pylist()
    assert got == expected
    t = best_of(q)
    ray.shutdown()
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--engines", default="polars,duckdb,spark,ray")
    args = ap.parse_args()
    rows = bench.damage(bench.corpus(args.rows))
    expected = [r.decode("utf-8", "replace") for r in rows]
    table = pa.table({"raw": pa.array(rows, pa.binary())})
    mb = table.column("raw").chunk(0).buffers()[2].size / 1e6
    path = os.path.join(tempfile.mkdtemp(prefix="utf8-bench-"), "raw.parquet")
    pq.write_table(table, path, row_group_size=100_000)
    t0 = time.perf_counter()
    [r.decode("utf-8", "replace") for r in rows]
    loop = time.perf_counter() - t0
    print(f"{args.rows} rows, {mb:.1f} MB; CPython decode loop alone: {loop * 1e3:.0f} ms")
    runs = {"polars": run_polars, "duckdb": run_duckdb, "spark": run_spark, "ray": run_ray}
    for name in args.engines.split(","):
        src = table if name in ("polars", "duckdb") else path
        t = runs[name](src, expected, False)
        t_loop = runs[name](src, expected, True)
        print(f"{name:7} one core: utf8_tools.repair {t * 1e3:6.0f} ms ({mb / t:5.0f} MB/s, "
              f"{args.rows / t / 1e6:5.2f} M rows/s); the same query with CPython's decode loop "
              f"{t_loop * 1e3:6.0f} ms ({t_loop / t:4.1f}x)", flush=True)


if __name__ == "__main__":
    main()
