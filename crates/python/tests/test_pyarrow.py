"""Per-row results on every Arrow type pyarrow makes, against CPython's decoder row by row."""

import os

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import utf8_tools as u
from conftest import SAMPLES, cpython_valid_up_to, decode_errors
from test_bytes import random_bytes

ROWS = SAMPLES + [None, b"", None] + [s * 3 for s in SAMPLES if s] + [b"x" * 40 + b"\xff"]


def typed(rows, t):
    """An array of `rows` typed as `t`, invalid UTF-8 kept (no validation) for string types."""
    binary = {
        pa.string(): pa.binary(),
        pa.large_string(): pa.large_binary(),
        pa.string_view(): pa.binary_view(),
    }.get(t, t)
    if binary == pa.binary_view():
        arr = pa.array(rows, pa.binary()).cast(pa.binary_view())
    else:
        arr = pa.array(rows, binary)
    if binary == t:
        return arr
    return pa.Array.from_buffers(t, len(arr), arr.buffers(), arr.null_count, arr.offset)


TYPES = [pa.binary(), pa.large_binary(), pa.string(), pa.large_string(), pa.binary_view(),
         pa.string_view()]
# The result type of repair for each input type.
REPAIRED = {
    pa.binary(): pa.string(), pa.string(): pa.string(),
    pa.large_binary(): pa.large_string(), pa.large_string(): pa.large_string(),
    pa.binary_view(): pa.string_view(), pa.string_view(): pa.string_view(),
}


def expected_repair(rows, **kw):
    return [None if r is None else u.repair(r, **kw) for r in rows]


def check_all(arr, rows):
    """Every function on `arr` against CPython's decoding of `rows` (None for nulls)."""
    repaired = pa.array(u.repair(arr))
    assert repaired.to_pylist() == [None if r is None else r.decode("utf-8", "replace")
                                    for r in rows]
    repaired.validate(full=True)
    assert pa.array(u.is_valid(arr)).to_pylist() == [
        None if r is None else not decode_errors(r) for r in rows
    ]
    assert pa.array(u.valid_up_to(arr)).to_pylist() == [
        None if r is None else cpython_valid_up_to(r) for r in rows
    ]
    errs = pa.array(u.errors(arr)).to_pylist()
    assert [None if e is None else [(x["offset"], x["length"]) for x in e] for e in errs] == [
        None if r is None else decode_errors(r) for r in rows
    ]
    assert errs == [None if r is None else u.errors(r) for r in rows]
    counts = pa.array(u.count(arr)).to_pylist()
    assert counts == [None if r is None else u.count(r) for r in rows]
    for c, r in zip(counts, rows):
        if r is not None:
            assert c["chars"] + c["errors"] == len(r.decode("utf-8", "replace"))
    # The chars-only path (counted from the offsets).
    assert pa.array(u.count(arr, fields=["chars"])).to_pylist() == [
        None if c is None else {"chars": c["chars"]} for c in counts
    ]
    return repaired


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_every_type(t):
    arr = typed(ROWS, t)
    repaired = check_all(arr, ROWS)
    assert repaired.type == REPAIRED[t]


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_sliced(t):
    arr = typed(ROWS, t)
    for start, stop in [(1, 7), (3, len(ROWS)), (len(ROWS) - 2, len(ROWS)), (5, 5)]:
        sliced = arr.slice(start, stop - start)
        assert sliced.offset == start
        check_all(sliced, ROWS[start:stop])


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_all_null_and_empty(t):
    check_all(typed([None] * 5, t), [None] * 5)
    empty = typed([], t)
    assert pa.array(u.repair(empty)).type == REPAIRED[t]
    check_all(empty, [])


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_valid_column_is_returned_without_copy(t):
    rows = ["caf\u00e9", None, "\u4e16\u754c" * 10, ""]
    arr = typed([None if r is None else r.encode() for r in rows], t)
    out = pa.array(u.repair(arr))
    assert out.to_pylist() == rows
    # The values buffer (or views' data buffers) is the input's own.
    assert out.buffers()[-1].address == arr.buffers()[-1].address


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_practices_and_actions_per_row(t):
    arr = typed(ROWS, t)
    for kw in [dict(practice="per-byte"), dict(practice="per-sequence"), dict(action="delete"),
               dict(action="escape"), dict(replacement="<?>")]:
        assert pa.array(u.repair(arr, **kw)).to_pylist() == expected_repair(ROWS, **kw)


def test_rows_split_inside_a_character():
    # The values buffer as a whole is valid UTF-8, but each row boundary cuts a character:
    # validating the buffer alone would call every row valid.
    whole = "\u20ac".encode() * 4  # E2 82 AC ...
    offsets = pa.array([0, 1, 4, 5, 12], pa.int32())
    arr = pa.Array.from_buffers(pa.binary(), 4, [None, offsets.buffers()[1], pa.py_buffer(whole)])
    rows = [whole[0:1], whole[1:4], whole[4:5], whole[5:12]]
    assert arr.to_pylist() == rows
    check_all(arr, rows)


def test_damaged_null_slots_are_repaired_too():
    # A null row whose slot holds invalid bytes: the string result must still be valid.
    data = b"ok\xffzz"
    offsets = pa.array([0, 2, 3, 5], pa.int32())
    validity = pa.array([True, False, True]).buffers()[1]
    arr = pa.Array.from_buffers(pa.binary(), 3, [validity, offsets.buffers()[1], pa.py_buffer(data)])
    out = pa.array(u.repair(arr))
    out.validate(full=True)
    assert out.to_pylist() == ["ok", None, "zz"]


N_RUNS = 40


@pytest.mark.parametrize("t", [pa.binary(), pa.large_binary(), pa.string(), pa.binary_view()],
                         ids=str)
@pytest.mark.parametrize("damaged", [[], [0], [0, 1], [17], [17, 18, 19], [N_RUNS - 1],
                                     [N_RUNS - 2, N_RUNS - 1], [0, 9, 10, 30, N_RUNS - 1],
                                     list(range(N_RUNS))], ids=str)
def test_clean_runs_copied_around_damaged_rows(t, damaged):
    # The rebuild copies each run of clean rows as one slice with its offsets shifted, and
    # repairs the damaged rows between runs: damaged rows first, last, adjacent, everywhere;
    # short rows (the standard library's decoder) and long ones (the codec's), null rows
    # (one over damaged bytes), and slices that start and end inside the runs.
    rows = [f"row {i} caf\u00e9 \u20ac\U0001f600 ".encode() * (1 + i % 3) for i in range(N_RUNS)]
    rows[12] = rows[12] * 40  # over 256 bytes
    for d in damaged:
        r = rows[d]
        rows[d] = r[:5] + b"\xff" + r[5:] + (b"\xf0\x9f\x98" if d % 2 else b"")
    if 17 in damaged:
        rows[12] = rows[12][:300] + b"\xc3" + rows[12][300:]
    rows[25] = None
    arr = typed(rows, t)
    if t == pa.binary():
        # Row 33 null over damaged bytes.
        data = b"".join(r or b"" for r in rows)
        ends = [0]
        for r in rows:
            ends.append(ends[-1] + len(r or b""))
        bad = data[: ends[33]] + b"\xff" + data[ends[33] :]
        ends = ends[:34] + [e + 1 for e in ends[34:]]
        validity = pa.array([r is not None and i != 33 for i, r in enumerate(rows)]).buffers()[1]
        arr = from_buffer(bad, ends, validity=validity)
        rows = rows[:33] + [None] + rows[34:]
    for cut in (0, 1, 10, 18):
        for end in (N_RUNS, N_RUNS - 1, 31):
            check_all(arr.slice(cut, end - cut), rows[cut:end])
            for kw in [dict(practice="per-byte"), dict(action="escape"), dict(replacement="?")]:
                assert pa.array(u.repair(arr.slice(cut, end - cut), **kw)).to_pylist() == \
                    expected_repair(rows[cut:end], **kw)


@pytest.mark.parametrize("t", [pa.binary(), pa.string(), pa.large_binary(), pa.binary_view()], ids=str)
def test_dictionary(t):
    rows = [b"a\xff", b"ok", None, b"a\xff", b"ok", b"\xe2\x82"]
    arr = typed(rows, t).dictionary_encode()
    assert pa.types.is_dictionary(arr.type)
    out = pa.array(u.repair(arr))
    assert pa.types.is_dictionary(out.type)
    assert out.type.value_type == REPAIRED[t]
    assert out.indices.equals(arr.indices)
    assert out.to_pylist() == [None if r is None else r.decode("utf-8", "replace") for r in rows]
    assert pa.array(u.is_valid(arr)).to_pylist() == [False, True, None, False, True, False]
    assert pa.array(u.count(arr)).to_pylist() == [None if r is None else u.count(r) for r in rows]
    # Null values in the dictionary itself.
    d = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 1], pa.int8()), pa.array([b"\xff", None]))
    assert pa.array(u.repair(d)).to_pylist() == ["\ufffd", None, None, None]


def test_chunked_and_many_chunks():
    chunks = [typed(ROWS[i : i + 3], pa.binary()) for i in range(0, len(ROWS), 3)]
    ca = pa.chunked_array(chunks)
    out = u.repair(ca)
    assert isinstance(out, u.ChunkedArray)
    res = pa.chunked_array(out)
    assert res.num_chunks == ca.num_chunks
    assert res.to_pylist() == [None if r is None else r.decode("utf-8", "replace") for r in ROWS]
    many = pa.chunked_array([pa.array([b"a\xff", None])] * 10_000)
    res = pa.chunked_array(u.repair(many))
    assert res.num_chunks == 10_000 and res.type == pa.string()
    assert res.to_pylist() == ["a\ufffd", None] * 10_000
    assert pa.chunked_array(u.is_valid(many)).to_pylist() == [False, None] * 10_000
    empty = pa.chunked_array([], pa.binary())
    assert pa.chunked_array(u.repair(empty)).type == pa.string()
    assert len(u.repair(empty)) == 0


def test_result_class():
    out = u.repair(pa.array([b"x"]))
    assert isinstance(out, u.Array) and len(out) == 1 and out.type == "Utf8"
    assert out.to_pylist() == ["x"] and out.null_count == 0
    assert pa.array(out).equals(out.to_pyarrow())
    # The stream export of a single array.
    assert pa.chunked_array(out).to_pylist() == ["x"]
    assert pa.schema([pa.field("f", out.to_pyarrow().type)])  # schema capsule works
    assert pa.DataType._import_from_c_capsule(out.__arrow_c_schema__()) == pa.string()


def test_wrong_arrow_type():
    with pytest.raises(TypeError, match="binary, large_binary, string, large_string, binary_view"):
        u.repair(pa.array([1, 2]))
    with pytest.raises(TypeError, match="got Int64"):
        u.count(pa.chunked_array([pa.array([1])]))


rows_strategy = st.lists(st.one_of(st.none(), random_bytes), max_size=30)


@given(rows_strategy, st.sampled_from(TYPES), st.integers(0, 5))
@settings(max_examples=300, deadline=None)
def test_property_columns_against_cpython(rows, t, cut):
    arr = typed(rows, t)
    cut = min(cut, len(rows))
    check_all(arr.slice(cut), rows[cut:])


def from_buffer(data, offsets, t=pa.binary(), validity=None):
    """A binary array over `data` without a copy (pa.array would copy gigabytes)."""
    otype = pa.int64() if t in (pa.large_binary(), pa.large_string()) else pa.int32()
    off = pa.array(offsets, otype).buffers()[1]
    return pa.Array.from_buffers(t, len(offsets) - 1, [validity, off, pa.py_buffer(data)])


def offsets_of(arr):
    """The offsets of a large string array, as ints."""
    return pa.Array.from_buffers(pa.int64(), len(arr) + 1, [None, arr.buffers()[1]]).to_pylist()


big = pytest.mark.skipif(
    os.environ.get("UTF8_TOOLS_SKIP_BIG") == "1", reason="UTF8_TOOLS_SKIP_BIG=1: no tests over 2 GiB"
)


@big
def test_string_result_over_2gib_is_large_string():
    # 800 M invalid bytes in a binary column (32-bit offsets): each becomes U+FFFD, three
    # bytes, 2.4 GB in all, beyond 32-bit offsets.
    n = 800_000_000
    arr = from_buffer(b"\xff" * n + b"ok", [0, n // 2, n, n + 2])
    out = pa.array(u.repair(arr))
    assert out.type == pa.large_string()
    assert offsets_of(out) == [0, 3 * n // 2, 3 * n, 3 * n + 2]
    assert out[2].as_py() == "ok"
    values = out.buffers()[2]
    assert values.size == 3 * n + 2
    assert values[:6].to_pybytes() == "\ufffd\ufffd".encode()
    assert values[3 * n - 3 :].to_pybytes() == "\ufffdok".encode()
    del out
    chunked = pa.chunked_array([arr, pa.array([b"fine"], pa.binary())])
    res = pa.chunked_array(u.repair(chunked))
    assert res.type == pa.large_string() and res.chunk(1).to_pylist() == ["fine"]


@big
def test_row_over_2gib_large_binary():
    n = 2**31 + 10
    data = bytearray(n + 3)  # zeros (NUL is valid UTF-8), mapped lazily
    data[n:] = b"\xe2\x82\xff"
    arr = from_buffer(data, [0, n + 2, n + 2, n + 3], pa.large_binary(),
                      pa.array([True, False, True]).buffers()[1])
    assert pa.array(u.is_valid(arr)).to_pylist() == [False, None, False]
    assert pa.array(u.valid_up_to(arr)).to_pylist() == [n, None, 0]
    assert pa.array(u.count(arr, fields=["bytes", "errors"])).to_pylist() == [
        {"bytes": n + 2, "errors": 1}, None, {"bytes": 1, "errors": 1}]
    out = pa.array(u.repair(arr))
    assert out.type == pa.large_string()
    assert offsets_of(out) == [0, n + 3, n + 3, n + 6]
    assert out.buffers()[2][n - 2 :].to_pybytes() == "\0\0\ufffd\ufffd".encode()
    assert out.to_pylist()[1:] == [None, "\ufffd"]


@pytest.mark.parametrize("shift", range(4))
def test_validation_windows_cut_characters(shift):
    # Columns are validated 256 KiB at a time: characters and errors straddling a window's
    # end (at every shift of the bytes) must be neither missed nor invented.
    window = 256 << 10
    euro = "\u20ac".encode()
    big = b"a" * shift + euro * (2 * window // 3 + 5)
    rows = [big, big[: window - 1] + b"\xff" + big[window:], b"\xe2\x82", big[1:] + b"\xf0\x9f"]
    for i in range(window - 4, window + 2):
        rows.append(big[:i] + b"\xed\xa0\x80" + big[i:])
    check_all(pa.array(rows, pa.binary()), rows)
    check_all(pa.array(rows, pa.large_binary()), rows)


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_threads(t):
    arr = typed(ROWS * 20, t)
    rows = ROWS * 20
    out = u.repair(arr, threads=3)
    assert isinstance(out, u.ChunkedArray) and out.num_chunks == 3
    assert pa.chunked_array(out).to_pylist() == [
        None if r is None else r.decode("utf-8", "replace") for r in rows]
    assert pa.chunked_array(u.count(arr, threads=2)).to_pylist() == pa.array(u.count(arr)).to_pylist()
    chunked = pa.chunked_array([arr.slice(i, 7) for i in range(0, len(arr), 7)])
    for f in (u.is_valid, u.valid_up_to, u.errors, u.detect, u.decode):
        assert pa.chunked_array(f(chunked, threads=4)).to_pylist() == pa.array(f(arr)).to_pylist()
    assert pa.array(u.repair(arr, threads=1)).to_pylist() == pa.chunked_array(out).to_pylist()
    with pytest.raises(ValueError, match="threads must be at least 1"):
        u.repair(arr, threads=0)


@pytest.mark.parametrize("cut", [0, 1, 5])
def test_chars_counted_across_blocks_and_chunks(cut):
    # count(fields=["chars"]) on offsets reads the values 64 KiB at a time in 64-byte blocks:
    # rows ending on, before and after both kinds of edge, rows cutting characters (damaged),
    # empty rows, against Python's length of each decoded valid row and the codec's count of
    # each row alone.
    import random

    chunk = 64 << 10
    unit = "\u00e9\u20ac\U0001f600a".encode()  # 2 + 3 + 4 + 1 bytes
    rnd = random.Random(7)
    rows, total = [], 0
    # A row ending exactly on the edge, or a character straddling it.
    for edge, straddle in ((chunk, False), (2 * chunk, True), (3 * chunk + 64, False)):
        while total < edge - 1100:
            n = rnd.choice([0, 1, 3, 9, 63, 64, 65, 127, 1000])
            start = rnd.randrange(10)
            rows.append((unit * (n // 10 + 2))[start : start + n])
            total += len(rows[-1])
        rows.append(b"x" * (edge - total - straddle))
        rows += [b"\xe2\x82\xac" * 2, b"", b"\xa9", b"\xc3"]
        total = sum(map(len, rows))
    rows += [None, unit * 3, b""]
    ends = [sum(map(len, (r or b"" for r in rows[:i]))) for i in range(len(rows) + 1)]
    assert chunk in ends and 3 * chunk + 64 in ends and 2 * chunk - 1 in ends
    for t in (pa.binary(), pa.large_binary(), pa.string()):
        arr = typed(rows, t).slice(cut)
        got = pa.array(u.count(arr, fields=["chars"])).field(0).to_pylist()
        want = [None if r is None else u.count(r, fields=["chars"])["chars"] for r in rows[cut:]]
        masked = [None if r is None else g for g, r in zip(got, rows[cut:])]
        assert masked == want
        for g, r in zip(got, rows[cut:]):
            if r is not None and not decode_errors(r):
                assert g == len(r.decode())
