"""The examples in the docstrings and in docs/PYTHON.md run as printed."""

import doctest

import uriscan
import uriscan._uriscan

from conftest import ROOT


def test_docstrings():
    # The extension's functions are builtins, which DocTestFinder does not
    # always take as a module's own: every public name is searched, and a
    # docstring found twice is run once.
    finder = doctest.DocTestFinder()
    tests = {}
    for module in (uriscan, uriscan._uriscan):
        for test in finder.find(module):
            tests.setdefault(test.docstring, test)
        for name in uriscan.__all__:
            obj = getattr(module, name, None)
            if getattr(obj, "__doc__", None) and ">>>" in obj.__doc__:
                for test in finder.find(obj, f"uriscan.{name}", module=False, globs=dict(vars(uriscan))):
                    tests.setdefault(test.docstring, test)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests.values():
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    # The module, the seven functions and Uri.
    assert len(tests) >= 9
    assert result.attempted > 20


def test_python_md():
    path = ROOT / "docs" / "PYTHON.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 10


def test_readme():
    # The README's Python examples (its other code blocks hold no `>>>`).
    path = ROOT / "README.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 6
