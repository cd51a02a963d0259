"""The docstrings' examples run as doctests, and the stubs name every function."""

import doctest
import pathlib

import utf8_tools


def test_docstring_examples():
    finder = doctest.DocTestFinder()
    # The functions live in the extension module the package re-exports.
    native = getattr(utf8_tools, "utf8_tools", utf8_tools)
    tests = [t for t in finder.find(native) if t.examples]
    names = {t.name.rsplit(".", 1)[-1] for t in tests}
    assert {"is_valid", "valid_up_to", "errors", "repair", "count", "detect", "decode",
            "fix_mojibake"} <= names, names
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0
    assert runner.tries >= 12


def test_stubs_cover_the_module():
    stub = pathlib.Path(utf8_tools.__file__).with_name("__init__.pyi")
    if not stub.exists():
        stub = pathlib.Path(__file__).parents[1] / "utf8_tools.pyi"
    text = stub.read_text()
    public = [n for n in dir(utf8_tools) if not n.startswith("_")]
    assert public
    for name in public:
        if name != "utf8_tools":
            assert f"def {name}(" in text or f"class {name}" in text, name
