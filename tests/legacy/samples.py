#!/usr/bin/env python3
"""Samples of real translated text in legacy encodings, for utf8-repair --from auto.

The text is the msgstr strings of the system's message catalogs (/usr/share/locale/LANG/
LC_MESSAGES/*.mo, read with Python's gettext), written nowhere in this project. For each
language/encoding pair and size, this writes into OUTDIR:

  LANG.ENCODING.SIZE.in    the text encoded by Python's codec (an oracle independent of
                           encoding_rs)
  LANG.ENCODING.SIZE.utf8  what decoding it must give (Python's decoding of those bytes)
  LANG.utf8-damaged.SIZE.in  the text as UTF-8 with three damaged places (a stray byte, a
                           truncated character, a lone continuation byte)

and prints one line per pair that had no text. Usage: samples.py OUTDIR
"""

import gettext
import os
import random
import sys
import unicodedata

# (language directory, WHATWG label, Python codec): 27 pairs of 19 encodings.
PAIRS = [
    ("cs", "windows-1250", "cp1250"),
    ("pl", "windows-1250", "cp1250"),
    ("hu", "windows-1250", "cp1250"),
    ("ru", "windows-1251", "cp1251"),
    ("uk", "windows-1251", "cp1251"),
    ("bg", "windows-1251", "cp1251"),
    ("fr", "windows-1252", "cp1252"),
    ("de", "windows-1252", "cp1252"),
    ("es", "windows-1252", "cp1252"),
    ("el", "windows-1253", "cp1253"),
    ("tr", "windows-1254", "cp1254"),
    ("he", "windows-1255", "cp1255"),
    ("ar", "windows-1256", "cp1256"),
    ("lt", "windows-1257", "cp1257"),
    ("lv", "windows-1257", "cp1257"),
    ("et", "windows-1257", "cp1257"),
    ("vi", "windows-1258", "cp1258"),
    ("th", "windows-874", "cp874"),
    ("ru", "KOI8-R", "koi8_r"),
    ("bg", "ISO-8859-5", "iso8859_5"),
    ("fi", "ISO-8859-15", "iso8859_15"),
    ("ja", "Shift_JIS", "cp932"),
    ("ja", "EUC-JP", "euc_jp"),
    ("ja", "ISO-2022-JP", "iso2022_jp"),
    ("zh_CN", "GBK", "gbk"),
    ("zh_TW", "Big5", "big5"),
    ("ko", "EUC-KR", "euc_kr"),
]

SIZES = [300, 3000, 20000]


def strings(lang):
    """The msgstr strings of a language's catalogs, in a fixed order, without duplicates."""
    d = os.path.join("/usr/share/locale", lang, "LC_MESSAGES")
    if not os.path.isdir(d):
        return []
    seen, out = set(), []
    for name in sorted(os.listdir(d)):
        if not name.endswith(".mo"):
            continue
        try:
            with open(os.path.join(d, name), "rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog
        except Exception:
            continue
        for key in sorted(catalog, key=repr):
            if key == "" or (isinstance(key, tuple) and key[0] == ""):
                continue  # the header
            s = catalog[key]
            # Translated text only: skip strings that are ASCII (untranslated or codes).
            if s and not s.isascii() and s not in seen:
                seen.add(s)
                out.append(s)
    return out


def encode(s, codec):
    """The bytes of `s` in `codec`, or None; Vietnamese in windows-1258 is decomposed into
    the base letters and combining tone marks that code page has."""
    try:
        return s.encode(codec)
    except UnicodeEncodeError:
        if codec != "cp1258":
            return None
    out = b""
    for c in s:
        try:
            out += c.encode(codec)
            continue
        except UnicodeEncodeError:
            pass
        d = unicodedata.normalize("NFD", c)
        # Keep the vowel's own mark (circumflex, breve, horn) composed, the tone apart.
        for split in range(len(d), 0, -1):
            base = unicodedata.normalize("NFC", d[:split])
            try:
                out += base.encode(codec) + d[split:].encode(codec)
                break
            except UnicodeEncodeError:
                continue
        else:
            return None
    return out


def sample(texts, codec, size):
    """Whole strings, one per line, until the encoded sample has about `size` bytes."""
    out = b""
    for s in texts:
        b = encode(s.replace("\r", ""), codec)
        if b is None:
            continue
        if out and len(out) + len(b) + 1 > size:
            break
        out += b + b"\n"
    return out


def damage(data, rng):
    """UTF-8 with three damaged places: a stray 0xFF, a character cut to its first byte,
    a lone continuation byte."""
    data = bytearray(data)
    leads = [i for i, b in enumerate(data) if b >= 0xC2]
    if leads:
        i = rng.choice(leads)
        n = 2 if data[i] < 0xE0 else 3 if data[i] < 0xF0 else 4
        del data[i + 1 : i + n]
    data.insert(rng.randrange(len(data)), 0xFF)
    data.insert(rng.randrange(len(data)), 0x80)
    return bytes(data)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(20)
    cache = {}
    for lang, label, codec in PAIRS:
        texts = cache.setdefault(lang, strings(lang))
        if not texts:
            print(f"{lang} {label}: no translated catalogs")
            continue
        for size in SIZES:
            data = sample(texts, codec, size)
            if len(data) < size // 2:
                print(f"{lang} {label} {size}: only {len(data)} bytes of text")
                continue
            base = os.path.join(outdir, f"{lang}.{label}.{size}")
            with open(base + ".in", "wb") as f:
                f.write(data)
            with open(base + ".utf8", "wb") as f:
                f.write(data.decode(codec).encode("utf-8"))
            utf8 = sample(texts, "utf-8", size)
            with open(os.path.join(outdir, f"{lang}.utf8-damaged.{size}.in"), "wb") as f:
                f.write(damage(utf8, rng))


if __name__ == "__main__":
    main()
