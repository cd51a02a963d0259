"""PySpark in local[2]: mapInArrow over a binaryFile read and an arrow_udf over a column.

Slow to start (a JVM): skipped when PySpark or Java is missing, or UTF8_TOOLS_SKIP_SPARK=1.
"""

import os
import shutil
import sys

import pytest

if os.environ.get("UTF8_TOOLS_SKIP_SPARK") == "1":
    pytest.skip("UTF8_TOOLS_SKIP_SPARK=1", allow_module_level=True)
pyspark = pytest.importorskip("pyspark")
pa = pytest.importorskip("pyarrow")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("no Java for Spark", allow_module_level=True)

import utf8_tools as u  # noqa: E402
from conftest import SAMPLES  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The Python workers are this interpreter, which has utf8_tools.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("utf8_tools-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    yield s
    s.stop()


def test_map_in_arrow_over_binary_files(spark, tmp_path):
    # Defined here so that Spark pickles it by value for its Python workers.
    def repair_content(batches):
        """mapInArrow: (path, content: binary) batches to (path, text: string) batches."""
        import utf8_tools

        for batch in batches:
            text = utf8_tools.repair(batch.column("content")).to_pyarrow()
            errors = utf8_tools.count(batch.column("content"), fields=["errors"]).to_pyarrow().field(0)
            yield pa.RecordBatch.from_arrays(
                [batch.column("path"), text, errors], names=["path", "text", "errors"]
            )

    files = {}
    for i, data in enumerate(SAMPLES):
        p = tmp_path / f"f{i:02}.txt"
        p.write_bytes(data)
        files[p.name] = data
    df = spark.read.format("binaryFile").load(str(tmp_path)).select("path", "content")
    out = df.mapInArrow(repair_content, "path string, text string, errors long").collect()
    # Spark's file listing leaves out empty files.
    assert sorted(r.path.rsplit("/", 1)[-1] for r in out) == sorted(n for n, d in files.items() if d)
    for row in out:
        data = files[row.path.rsplit("/", 1)[-1]]
        assert row.text == data.decode("utf-8", "replace")
        assert row.errors == u.count(data)["errors"]


def test_arrow_udf_over_a_column(spark):
    try:
        from pyspark.sql.functions import arrow_udf
    except ImportError:
        pytest.skip("this PySpark has no arrow_udf (4.1+)")
    from pyspark.sql.functions import col

    @arrow_udf("string")
    def repair_udf(v: pa.Array) -> pa.Array:
        import utf8_tools

        return utf8_tools.repair(v).to_pyarrow()

    rows = [(i, s) for i, s in enumerate(SAMPLES + [None] * 3)]
    df = spark.createDataFrame(rows, "i int, raw binary").repartition(2)
    got = {r.i: r.text for r in df.select("i", repair_udf(col("raw")).alias("text")).collect()}
    assert got == {i: None if s is None else s.decode("utf-8", "replace") for i, s in rows}
