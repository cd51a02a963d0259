"""Issue 58's item 3 ratios in one run: utf8_tools against what Python users run today.

    python crates/python/bench.py [--rows N] [--repeat R]

The column: the first N lines (1 M by default) of the Rust sources under
~/.cargo/registry/src (sorted paths, so the same machine gives the same column), as a pyarrow
binary array; 1% of rows (every 100th) damaged by one byte 0xFF in their middle. Each time is
the median of R runs (wall clock, one thread).
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

import utf8_tools as u


def corpus(rows: int) -> list[bytes]:
    root = pathlib.Path(os.path.expanduser("~/.cargo/registry/src"))
    lines: list[bytes] = []
    for path in sorted(root.rglob("*.rs")):
        try:
            lines.extend(path.read_bytes().split(b"\n"))
        except OSError:
            continue
        if len(lines) >= rows:
            break
    if len(lines) < rows:
        sys.exit(f"bench.py: only {len(lines)} lines under {root}, {rows} wanted")
    return lines[:rows]


def damage(lines: list[bytes]) -> list[bytes]:
    out = list(lines)
    for i in range(0, len(out), 100):
        b = out[i]
        out[i] = b[: len(b) // 2] + b"\xff" + b[len(b) // 2 :]
    return out


def timed_pair(f, g, repeat: int) -> tuple[float, float]:
    """Medians of `repeat` runs of f and of g, interleaved (f, g, f, g, ...) so that a
    change in the machine's load reaches both alike."""
    tf, tg = [], []
    for _ in range(repeat):
        for fn, times in ((f, tf), (g, tg)):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    return statistics.median(tf), statistics.median(tg)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()

    clean = corpus(args.rows)
    damaged = damage(clean)
    valid_col = pa.array(clean, pa.binary())
    damaged_col = pa.array(damaged, pa.binary())
    as_string = valid_col.cast(pa.string())  # a copy typed as string, for pyarrow's checks
    mb = valid_col.buffers()[2].size / 1e6
    print(f"column: {args.rows} rows, {mb:.1f} MB of values, 1% of rows damaged in the second; "
          f"median of {args.repeat} runs; pyarrow {pa.__version__}")

    # The results must be right before they are timed.
    assert pa.array(u.repair(damaged_col)).to_pylist() == [b.decode("utf-8", "replace") for b in damaged]
    assert pa.array(u.repair(valid_col)).equals(as_string)
    assert pa.array(u.is_valid(valid_col)).to_pylist() == [True] * args.rows
    chars = pa.array(u.count(valid_col, fields=["chars"])).field(0)
    assert chars.equals(pc.utf8_length(as_string).cast(pa.int64()))

    rows = []

    def row(name, ours, theirs, target, better):
        t_ours, t_theirs = timed_pair(ours, theirs, args.repeat)
        ratio = t_theirs / t_ours
        ok = ratio >= target
        rows.append((name, t_ours, t_theirs, ratio, target, ok, better))

    row("repair 1% damaged vs [b.decode('utf-8','replace') for b in rows]",
        lambda: pa.array(u.repair(damaged_col)),
        lambda: [b.decode("utf-8", "replace") for b in damaged], 20.0, "faster")
    row("repair valid vs pyarrow cast(binary -> string)",
        lambda: pa.array(u.repair(valid_col)),
        lambda: valid_col.cast(pa.string()), 2.0, "faster")
    row("is_valid vs StringArray.validate(full=True)",
        lambda: pa.array(u.is_valid(valid_col)),
        lambda: as_string.validate(full=True), 2.0, "faster")
    row("count chars vs pyarrow.compute.utf8_length",
        lambda: pa.array(u.count(valid_col, fields=["chars"])),
        lambda: pc.utf8_length(as_string), 1.0, "no slower")

    print(f"{'workload':<68} {'utf8_tools':>11} {'peer':>10} {'peer/ours':>9}  target")
    for name, t_ours, t_theirs, ratio, target, ok, better in rows:
        print(f"{name:<68} {t_ours * 1e3:>8.2f} ms {t_theirs * 1e3:>7.2f} ms {ratio:>8.1f}x  "
              f">= {target:g}x {'ok' if ok else 'MISSED'}")
    print("not measured: fix_mojibake vs ftfy.fix_text, detect vs charset-normalizer "
          "(the package has neither function yet)")
    if not all(r[5] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
