#!/usr/bin/env python3
"""Mojibake samples of real translated text, for utf8-repair --fix-mojibake.

The text is the msgstr strings of the system's message catalogs (see samples.py), in two
forms: FORM nfc as the catalogs have it (composed, nearly all of them), and FORM nfd, each
string decomposed by unicodedata.normalize('NFD', ...) as macOS writes file names and some
editors save text (`é` as `e` and U+0301 COMBINING ACUTE ACCENT); an nfd sample is written
only where it differs from the nfc one. Uzbek is among the languages for its modifier
letter U+02BB (`boʻlmadi`). For each language, form and size this writes into OUTDIR:

  LANG.FORM.SIZE.clean          the text as UTF-8 (must come out unchanged)
  LANG.FORM.SIZE.VARIANT.in     the text's UTF-8 decoded as windows-1252 or Latin-1 and
                                encoded again, once or twice (VARIANT: cp1252x1, cp1252x2,
                                latin1x1, latin1x2); windows-1252's five unassigned bytes
                                become C1 controls, as in ftfy's sloppy-windows-1252
  LANG.FORM.SIZE.VARIANT.ftfy   what ftfy.fix_encoding makes of it, when ftfy is installed

Usage: mojibake.py OUTDIR   (prints "ftfy VERSION" or "no ftfy")
"""

import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from samples import sample, strings  # noqa: E402

# Without ftfy installed, `import ftfy` would find this directory's ftfy/ (its test cases)
# as an empty namespace package: ask for what is used.
try:
    from ftfy import __version__ as FTFY_VERSION, fix_encoding
except ImportError:
    FTFY_VERSION, fix_encoding = None, None

# Every Latin-script language with letters outside ASCII that the system's catalogs hold
# (Romanian's comma-below s and t are C8 99 and C8 9B, Azerbaijani's schwa C9 99, Maltese's
# dotted and barred letters, Esperanto's circumflexed ones), and the other scripts.
LANGS = ["cs", "pl", "hu", "ru", "uk", "bg", "fr", "de", "es", "el", "tr", "he", "ar",
         "lt", "lv", "et", "vi", "th", "ja", "zh_CN", "zh_TW", "ko", "fi", "uz",
         "ro", "hr", "sk", "sl", "az", "mt", "eo", "cy", "tk", "is", "da", "sv", "pt_BR",
         "it", "ca", "sq", "ga", "nl"]
SIZES = [300, 3000]
HOLES = {0x81, 0x8D, 0x8F, 0x90, 0x9D}


def cp1252(data):
    return "".join(chr(b) if b in HOLES else bytes([b]).decode("cp1252") for b in data)


def latin1(data):
    return data.decode("latin-1")


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    print(f"ftfy {FTFY_VERSION}" if fix_encoding else "no ftfy")
    for lang in LANGS:
        nfc = strings(lang)
        nfd = [unicodedata.normalize("NFD", s) for s in nfc]
        for size in SIZES:
            composed = sample(nfc, "utf-8", size)
            if len(composed) < size // 2:
                continue
            write(os.path.join(outdir, f"{lang}.nfc.{size}"), composed)
            decomposed = sample(nfd, "utf-8", size)
            if decomposed != composed:
                write(os.path.join(outdir, f"{lang}.nfd.{size}"), decomposed)


def write(base, data):
    """The clean sample `data` at BASE.clean, its four mojibake variants and ftfy's fixes of
    them."""
    with open(base + ".clean", "wb") as f:
        f.write(data)
    for name, decode in [("cp1252", cp1252), ("latin1", latin1)]:
        once = decode(data)
        twice = decode(once.encode("utf-8"))
        for n, text in [(1, once), (2, twice)]:
            path = f"{base}.{name}x{n}"
            with open(path + ".in", "wb") as f:
                f.write(text.encode("utf-8"))
            if fix_encoding:
                with open(path + ".ftfy", "wb") as f:
                    f.write(fix_encoding(text).encode("utf-8"))


if __name__ == "__main__":
    main()
