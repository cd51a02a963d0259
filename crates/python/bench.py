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


NOTES: list[str] = []
LEGACY = pathlib.Path(__file__).resolve().parents[2] / "tests" / "legacy"


def generated(script: str) -> dict[str, bytes]:
    """The files tests/legacy/SCRIPT writes (from the system's message catalogs)."""
    import subprocess
    import tempfile

    out = tempfile.mkdtemp(prefix="utf8-tools-bench-")
    subprocess.run([sys.executable, str(LEGACY / script), out], check=True,
                   capture_output=True)
    return {p.name: p.read_bytes() for p in pathlib.Path(out).iterdir()}


def legacy_rows(rows, repeat: int) -> None:
    """fix_mojibake against ftfy and detect against charset-normalizer, on the project's
    samples (tests/legacy/mojibake.py and samples.py), with their scores."""
    try:
        import ftfy
    except ImportError:
        ftfy = None
        NOTES.append("skipped: fix_mojibake vs ftfy.fix_text (pip install ftfy)")
    try:
        import charset_normalizer
    except ImportError:
        charset_normalizer = None
        NOTES.append("skipped: detect vs charset-normalizer (pip install charset-normalizer)")
    if ftfy:
        files = generated("mojibake.py")
        cases = []  # (input, expected): the mojibake and the clean text, and clean unchanged
        for name, data in sorted(files.items()):
            if name.endswith(".in"):
                stem = name.rsplit(".", 2)[0]
                cases.append((data.decode(), files[stem + ".clean"].decode()))
            elif name.endswith(".clean"):
                cases.append((data.decode(), data.decode()))
        ours = sum(u.fix_mojibake(i) == e for i, e in cases)
        theirs = sum(ftfy.fix_text(i) == e for i, e in cases)
        encoding_only = sum(ftfy.fix_encoding(i) == e for i, e in cases)
        accuracy("fix_mojibake score", ours, "samples right", f"ftfy {ftfy.__version__} fix_text",
                 theirs, len(cases), "fix_text's", aside=" (it also changes quotes and "
                 f"normalization), fix_encoding {encoding_only}/{len(cases)}")
        inputs = [i for i, _ in cases]
        row(rows, "fix_mojibake vs ftfy.fix_text (mojibake.py samples)",
            lambda: [u.fix_mojibake(i) for i in inputs],
            lambda: [ftfy.fix_text(i) for i in inputs], 50.0, repeat)
    if charset_normalizer:
        files = generated("samples.py")
        cases = []
        for name, data in sorted(files.items()):
            if name.endswith(".in") and ".utf8-damaged." not in name:
                cases.append((data, files[name[:-3] + ".utf8"].decode()))
        ours = sum(u.decode(d) == e for d, e in cases)

        def cn_decode(d):
            best = charset_normalizer.from_bytes(d).best()
            return None if best is None else str(best)

        theirs = sum(cn_decode(d) == e for d, e in cases)
        accuracy("detect accuracy (decoded text equal to Python's)", ours, "legacy samples",
                 f"charset-normalizer {charset_normalizer.__version__}", theirs, len(cases), "its")
        data = [d for d, _ in cases]
        row(rows, "detect vs charset_normalizer.from_bytes(...).best() (samples.py)",
            lambda: [u.detect(d) for d in data],
            lambda: [charset_normalizer.from_bytes(d).best() for d in data], 10.0,
            max(1, repeat // 4))


def accuracy(title, ours, unit, peer, theirs, n, whose, aside=""):
    """Notes how many of n samples we get right beside a peer; the target is at least its count."""
    NOTES.append(f"{title}: {ours}/{n} {unit}, {peer} {theirs}/{n}{aside} (target: at least "
                 f"{whose}) {'ok' if ours >= theirs else 'MISSED'}")


def row(rows, name, ours, theirs, target, repeat, better="faster"):
    t_ours, t_theirs = timed_pair(ours, theirs, repeat)
    ratio = t_theirs / t_ours
    rows.append((name, t_ours, t_theirs, ratio, target, ratio >= target, better))


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

    rows: list = []

    row(rows, "repair 1% damaged vs [b.decode('utf-8','replace') for b in rows]",
        lambda: pa.array(u.repair(damaged_col)),
        lambda: [b.decode("utf-8", "replace") for b in damaged], 20.0, args.repeat)
    row(rows, "repair valid vs pyarrow cast(binary -> string)",
        lambda: pa.array(u.repair(valid_col)),
        lambda: valid_col.cast(pa.string()), 2.0, args.repeat)
    row(rows, "is_valid vs StringArray.validate(full=True)",
        lambda: pa.array(u.is_valid(valid_col)),
        lambda: as_string.validate(full=True), 2.0, args.repeat)
    row(rows, "count chars vs pyarrow.compute.utf8_length",
        lambda: pa.array(u.count(valid_col, fields=["chars"])),
        lambda: pc.utf8_length(as_string), 1.0, args.repeat, "no slower")

    legacy_rows(rows, args.repeat)

    print(f"{'workload':<68} {'utf8_tools':>11} {'peer':>10} {'peer/ours':>9}  target")
    for name, t_ours, t_theirs, ratio, target, ok, better in rows:
        print(f"{name:<68} {t_ours * 1e3:>8.2f} ms {t_theirs * 1e3:>7.2f} ms {ratio:>8.1f}x  "
              f">= {target:g}x {'ok' if ok else 'MISSED'}")
    for line in NOTES:
        print(line)
    if not all(r[5] for r in rows) or any("MISSED" in n for n in NOTES):
        sys.exit(1)


if __name__ == "__main__":
    main()
