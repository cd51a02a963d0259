"""The functions on bytes-like objects, against CPython's UTF-8 decoder."""

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import utf8_tools as u
from conftest import SAMPLES, cpython_valid_up_to, decode_errors

# Random bytes weighted towards UTF-8's interesting bytes, so that valid multi-byte sequences,
# near misses and errors of every kind all occur.
interesting = st.sampled_from(
    [0x00, 0x0A, 0x20, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
     0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFE, 0xFF]
)
random_bytes = st.one_of(
    st.binary(max_size=64),
    st.lists(interesting, max_size=48).map(bytes),
    st.lists(st.one_of(interesting, st.integers(0, 255)), max_size=48).map(bytes),
    st.text(max_size=20).map(lambda s: s.encode("utf-8", "surrogatepass")),
)


def test_repair_default_is_cpython_replace(sample):
    assert u.repair(sample) == sample.decode("utf-8", "replace")


def test_delete_and_escape_are_cpython_ignore_and_backslashreplace(sample):
    assert u.repair(sample, action="delete") == sample.decode("utf-8", "ignore")
    assert u.repair(sample, action="escape") == sample.decode("utf-8", "backslashreplace")


def test_replacement_string(sample):
    assert u.repair(sample, replacement="?") == sample.decode("utf-8", "replace").replace(
        "\ufffd", "?"
    )


def test_is_valid_valid_up_to_errors(sample):
    assert u.is_valid(sample) == (not decode_errors(sample))
    assert u.valid_up_to(sample) == cpython_valid_up_to(sample)
    assert [(e["offset"], e["length"]) for e in u.errors(sample)] == decode_errors(sample)


def test_count(sample):
    c = u.count(sample)
    errs = decode_errors(sample)
    assert list(c) == ["lines", "words", "chars", "bytes", "errors"]
    assert c["bytes"] == len(sample)
    assert c["lines"] == sample.count(b"\n")
    assert c["errors"] == len(errs)
    assert c["chars"] + c["errors"] == len(sample.decode("utf-8", "replace"))


@given(random_bytes)
@settings(max_examples=2000, deadline=None)
def test_property_against_cpython(data):
    assert u.repair(data) == data.decode("utf-8", "replace")
    assert u.repair(data, action="escape") == data.decode("utf-8", "backslashreplace")
    errs = decode_errors(data)
    assert u.is_valid(data) == (not errs)
    assert u.valid_up_to(data) == cpython_valid_up_to(data)
    assert [(e["offset"], e["length"]) for e in u.errors(data)] == errs
    c = u.count(data)
    assert (c["bytes"], c["lines"], c["errors"]) == (len(data), data.count(b"\n"), len(errs))
    assert c["chars"] + c["errors"] == len(data.decode("utf-8", "replace"))


@given(random_bytes)
@settings(max_examples=300, deadline=None)
def test_practices_agree_on_valid_rows_and_per_byte_counts_bytes(data):
    per_byte = u.repair(data, practice="per-byte")
    bad = sum(length for _, length in decode_errors(data))
    # One U+FFFD per ill-formed byte: as many as the bytes CPython's handler was given.
    assert per_byte.count("\ufffd") - data.decode("utf-8", "ignore").count("\ufffd") == bad
    assert u.repair(data, practice="per-sequence", action="delete") == data.decode(
        "utf-8", "ignore"
    )


def test_error_kinds():
    kinds = lambda b: [e["kind"] for e in u.errors(b)]  # noqa: E731
    assert kinds(b"\xc1\x81") == ["overlong", "unexpected-continuation"]
    assert kinds(b"\xed\xa0\x80") == ["surrogate"] + ["unexpected-continuation"] * 2
    assert kinds(b"\xf4\x90\x80\x80")[0] == "out-of-range"
    assert kinds(b"\xff") == ["invalid-byte"]
    assert kinds(b"\x80") == ["unexpected-continuation"]
    assert kinds(b"\xe2\x82A") == ["truncated"]
    assert kinds(b"\xe2\x82") == ["unexpected-end"]


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview, lambda b: memoryview(bytearray(b))])
def test_bytes_like_inputs(make):
    data = b"ok \xe2\x82 \xff"
    assert u.repair(make(data)) == data.decode("utf-8", "replace")
    assert u.is_valid(make(data)) is False
    assert u.count(make(data))["errors"] == 2


def test_array_module_buffer():
    import array

    a = array.array("B", b"caf\xc3\xa9\xff")
    assert u.repair(a) == "caf\u00e9\ufffd"


def test_words_as_gnu_wc():
    # GNU wc -w in a UTF-8 locale is the oracle; its rule is ported in utf8_codec::words.
    cases = SAMPLES + [
        "a\u00a0b c\u2007d e\u202ff".encode(),
        "x\u3000y\u2028z \u200b".encode(),
        b"one two\xffthree\n\x01 \x02",
    ]
    try:
        subprocess.run(["wc", "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("GNU wc is not installed")
    for data in cases:
        out = subprocess.run(
            ["wc", "-w"], input=data, capture_output=True, check=True,
            env={"LC_ALL": "C.UTF-8"},
        ).stdout
        assert u.count(data, fields=["words"]) == {"words": int(out)}, data


def test_type_errors_name_what_is_accepted():
    for bad in ["text", 3, None, [b"x"], 2.5]:
        with pytest.raises(TypeError, match="bytes, bytearray, memoryview or an Arrow array"):
            u.repair(bad)
        with pytest.raises(TypeError, match="expected bytes"):
            u.is_valid(bad)


def test_value_errors_list_the_choices():
    with pytest.raises(ValueError, match="'maximal-subpart', 'per-byte', 'per-sequence'"):
        u.repair(b"x", practice="wtf-8")
    with pytest.raises(ValueError, match="'replace', 'delete', 'escape'"):
        u.repair(b"x", action="drop")
    with pytest.raises(ValueError, match="action='replace'"):
        u.repair(b"x", action="delete", replacement="?")
    with pytest.raises(ValueError, match="'lines', 'words', 'chars', 'bytes', 'errors'"):
        u.count(b"x", fields=["letters"])


def test_gil_released_threads_agree():
    # Many threads over the same input: the GIL is released while the codec runs, so this
    # also checks that nothing shared is mutated.
    from concurrent.futures import ThreadPoolExecutor

    data = ("caf\u00e9 " * 100_000).encode() + b"\xff"
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(u.repair, [data] * 8))
    assert all(r == data.decode("utf-8", "replace") for r in results)
