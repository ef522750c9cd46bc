"""The line an error names says whose code it is in with a name the learner wrote.

Python names a comprehension's, a lambda's and a cell's top-level frame ``<listcomp>``, ``<lambda>`` and
``<module>``: a hint said 「（<listcomp> の `return [...]` の行）」 of a learner's ``run_tools`` (Python 3.11;
3.12 runs a comprehension in its function's frame). The function around it is named instead, or none.
"""

import linecache

import pytest

from harness_lab.grading.wire import describe_error
from harness_lab.text import speaking, t


def run_tools(content):
    return [str(block.nme) for block in content]


def raised(function, *args) -> BaseException:
    try:
        function(*args)
    except Exception as exc:
        return exc
    raise AssertionError("it did not raise")


@pytest.mark.parametrize("language", ["ja", "en"])
def test_an_error_in_a_comprehension_names_the_function_around_it(language):
    with speaking(language):
        line = describe_error(raised(run_tools, [object()]))
        named = t("grade.raised_at", function="run_tools", line="return [str(block.nme) for block in content]")
    assert line.endswith(named), line


@pytest.mark.parametrize("language", ["ja", "en"])
def test_an_error_in_a_top_level_lambda_names_only_its_line(language):
    source, name = "check = lambda block: block.nme\n", "<ipython-input-1>"
    linecache.cache[name] = (len(source), None, [source], name)  # as IPython keeps a cell's code
    cell: dict = {}
    exec(compile(source, name, "exec"), cell)
    exc = raised(cell["check"], object())
    exc.__traceback__ = exc.__traceback__.tb_next  # as the grader calls it: no frame of the learner's around it
    try:
        with speaking(language):
            line, named = describe_error(exc), t("grade.raised_at_line", line=source.strip())
    finally:
        linecache.cache.pop(name, None)
    assert "<" not in line and line.endswith(named), line
