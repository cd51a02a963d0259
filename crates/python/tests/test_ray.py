"""Ray Data: map_batches(batch_format="pyarrow") over ray.init(num_cpus=2).

Slow to start: skipped when Ray is missing or UTF8_TOOLS_SKIP_RAY=1.
"""

import os

import pytest

if os.environ.get("UTF8_TOOLS_SKIP_RAY") == "1":
    pytest.skip("UTF8_TOOLS_SKIP_RAY=1", allow_module_level=True)
ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
pa = pytest.importorskip("pyarrow")

from conftest import SAMPLES  # noqa: E402

ROWS = [s for s in SAMPLES] * 50 + [None] * 10


@pytest.fixture(scope="module")
def ray_local():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield
    ray.shutdown()


def test_map_batches_pyarrow(ray_local):
    def repair_batch(batch: pa.Table) -> pa.Table:
        import utf8_tools

        raw = batch.column("raw")
        return batch.append_column("text", utf8_tools.repair(raw).to_pyarrow()).append_column(
            "ok", utf8_tools.is_valid(raw).to_pyarrow()
        )

    table = pa.table({"i": list(range(len(ROWS))), "raw": pa.array(ROWS, pa.binary())})
    ds = ray.data.from_arrow(table).repartition(4)
    out = ds.map_batches(repair_batch, batch_format="pyarrow", batch_size=64).to_arrow_refs()
    result = pa.concat_tables(ray.get(out)).sort_by("i")
    assert result.column("i").to_pylist() == list(range(len(ROWS)))
    assert result.column("text").to_pylist() == [
        None if r is None else r.decode("utf-8", "replace") for r in ROWS
    ]
    assert result.column("ok").to_pylist() == [
        None if r is None else r.decode("utf-8", "replace").encode() == r for r in ROWS
    ]
