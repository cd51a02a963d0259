"""detect, decode and fix_mojibake: CPython's codecs as the oracle of the encodings."""

import pyarrow as pa
import pytest

import utf8_tools as u
from conftest import SAMPLES

TEXTS = {
    "cp1250": "Příliš žluťoučký kůň úpěl ďábelské ódy. Zażółć gęślą jaźń, łódź.",
    "cp1251": "Съешь же ещё этих мягких французских булок, да выпей чаю. Привет, мир!",
    "cp1252": "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis. Déjà vu.",
    "cp1253": "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Καλημέρα σας, τι κάνετε σήμερα;",
    "shift_jis": "いろはにほへと ちりぬるを わかよたれそ つねならむ。日本語のテキストです。",
    "gb18030": "我能吞下玻璃而不伤身体。这是一个简体中文的句子，用来测试编码。",
    "euc_kr": "다람쥐 헌 쳇바퀴에 타고파. 한국어 문장을 시험합니다.",
    "big5": "我能吞下玻璃而不傷身體。這是一個繁體中文的句子，用來測試編碼。",
}
LABELS = {"cp1250": "windows-1250", "cp1251": "windows-1251", "cp1252": "windows-1252",
          "cp1253": "windows-1253", "shift_jis": "shift_jis", "gb18030": "gb18030",
          "euc_kr": "euc-kr", "big5": "big5"}


@pytest.mark.parametrize("codec", TEXTS)
def test_decode_with_a_label_is_cpythons_decoding(codec):
    data = TEXTS[codec].encode(codec)
    assert u.decode(data, encoding=LABELS[codec]) == data.decode(codec) == TEXTS[codec]


@pytest.mark.parametrize("codec", TEXTS)
def test_decode_auto_finds_the_encoding(codec):
    text = TEXTS[codec] * 3
    data = text.encode(codec)
    assert u.decode(data) == text
    d = u.detect(data)
    assert d["evidence"] == "detected" and d["encoding"] is not None


def test_decode_utf8_and_boms():
    for s in SAMPLES:
        assert u.decode(s, encoding="utf-8") == s.decode("utf-8", "replace")
    assert u.decode(b"\xef\xbb\xbfcaf\xc3\xa9") == "caf\u00e9"
    assert u.decode("h\u00e9".encode("utf-16")) == "h\u00e9"  # BOM + UTF-16LE
    assert u.detect("h\u00e9".encode("utf-16-be")[:0] + b"\xfe\xff\x00h") == {
        "encoding": "UTF-16BE", "evidence": "byte order mark"}
    # A byte order mark overrides a label, as in the tools.
    assert u.decode(b"\xef\xbb\xbfok", encoding="windows-1252") == "ok"
    assert u.detect(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff") == {
        "encoding": None, "evidence": "binary"}
    assert u.detect(b"plain") == {"encoding": "UTF-8", "evidence": "valid UTF-8"}


def test_decode_and_detect_columns():
    rows = [TEXTS["cp1251"].encode("cp1251"), None, "ok \u00e9".encode(), b"\xff"]
    arr = pa.array(rows, pa.binary())
    assert pa.array(u.decode(arr)).to_pylist() == [None if r is None else u.decode(r) for r in rows]
    assert pa.array(u.detect(arr)).to_pylist() == [None if r is None else u.detect(r) for r in rows]
    for t in [pa.large_binary(), pa.binary_view()]:
        assert pa.array(u.decode(arr.cast(t), encoding="windows-1251")).to_pylist() == [
            None if r is None else u.decode(r, encoding="windows-1251") for r in rows]
    d = arr.dictionary_encode()
    out = pa.array(u.decode(d, encoding="windows-1251"))
    assert pa.types.is_dictionary(out.type)
    assert out.to_pylist() == [None if r is None else u.decode(r, encoding="windows-1251")
                               for r in rows]


def test_unknown_label_lists_the_choices():
    with pytest.raises(ValueError, match="expected auto"):
        u.decode(b"x", encoding="klingon")


MOJIBAKE = {
    "caf\u00c3\u00a9": "caf\u00e9",
    "\u00e2\u20ac\u0153quotes\u00e2\u20ac\u009d": "\u201cquotes\u201d",
    "\u00c3\u0192\u00c2\u00a9t\u00c3\u0192\u00c2\u00a9": "\u00e9t\u00e9",  # twice
    "\u00d0\u0178\u00d1\u20ac\u00d0\u00b8\u00d0\u00b2\u00d0\u00b5\u00d1\u201a": "\u041f\u0440\u0438\u0432\u0435\u0442",
}


def test_fix_mojibake_undoes_cp1252_round_trips():
    for bad, good in MOJIBAKE.items():
        assert u.fix_mojibake(bad) == good
    # Mojibake made by CPython itself: UTF-8 decoded as windows-1252.
    for text in ["na\u00efve d\u00e9j\u00e0 vu", "\u00fcber Stra\u00dfe", "\u0142\u00f3d\u017a"]:
        assert u.fix_mojibake(text.encode().decode("cp1252")) == text


def test_fix_mojibake_leaves_clean_text_alone():
    for text in list(TEXTS.values()) + ["CAF\u00c9\u2026 Fu\u00df\u201c A\u00d1O\u2026",
                                        "na\u00efve \u00abd\u00e9j\u00e0\u00bb"]:
        assert u.fix_mojibake(text) == text


def test_fix_mojibake_columns_and_types():
    rows = list(MOJIBAKE) + [None, "clean"]
    for t in [pa.string(), pa.large_string(), pa.string_view()]:
        out = pa.array(u.fix_mojibake(pa.array(rows, t)))
        assert out.to_pylist() == [None if r is None else u.fix_mojibake(r) for r in rows]
    with pytest.raises(TypeError, match="expected str or an Arrow string array"):
        u.fix_mojibake(b"caf\xc3\x83\xc2\xa9")
    with pytest.raises(TypeError, match="expected bytes"):
        u.detect("text")


def test_latin1_and_ascii_are_cpythons():
    data = bytes(range(256))
    for label in ["latin1", "ISO-8859-1", "iso8859-1", "L1"]:
        assert u.decode(data, encoding=label) == data.decode("latin-1")
    for label in ["ascii", "US-ASCII"]:
        assert u.decode(data, encoding=label) == data.decode("ascii", "replace")
    assert u.decode(data, encoding="windows-1252")[0x80] == "\u20ac"
    col = pa.array([b"caf\xe9", None], pa.binary())
    assert pa.array(u.decode(col, encoding="latin1")).to_pylist() == ["caf\u00e9", None]
