"""Shared oracles: CPython's own UTF-8 decoder, and samples of damaged input."""

import codecs

import pytest

#: Byte strings that exercise every kind of error in the codec's model, valid text, and the
#: edges of Unicode Table 3-7.
SAMPLES = [
    b"",
    b"plain ascii",
    "caf\u00e9 \u4e16\u754c \U0001f600".encode(),
    b"caf\xe9",  # Latin-1
    b"\xc0\xaf",  # overlong
    b"\xe0\x80\x80",  # overlong, three errors
    b"\xed\xa0\x80",  # surrogate
    b"\xf4\x90\x80\x80",  # out of range
    b"\xf5\x80",  # out of range lead
    b"\xfe\xff",  # invalid bytes
    b"\x80\xbf",  # stray continuations
    b"\xe2\x82A",  # truncated
    b"\xf0\x9f\x98",  # unexpected end
    b"a\xf0\x9f\x98b\xf0\x9f",
    b"\xef\xbb\xbfBOM",
    b"\xff\xfeU\x00T\x00F\x00",  # UTF-16 with BOM
    b"\x00\x01\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
    b"line one\nline two\r\n\xff\n",
]


def decode_errors(data: bytes):
    """The errors CPython's decoder reports: (offset, length) per call of its error handler."""
    found = []

    def handler(exc):
        found.append((exc.start, exc.end - exc.start))
        return ("", exc.end)

    name = "utf8_tools_test_record"
    codecs.register_error(name, handler)
    data.decode("utf-8", name)
    return found


def cpython_valid_up_to(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return len(data)


@pytest.fixture(params=SAMPLES, ids=lambda b: repr(b)[:40])
def sample(request):
    return request.param
