"""Every verdict an English learner can get from a lesson check is English: each wrong answer in the
answers tables, checked in an English kernel, is told its hint with no Japanese in it.

The tables are written as a Japanese learner writes (their stop messages and error texts); an English
learner writes English, so each answer's own Japanese words are put in English first, and what the hint
then quotes of the learner is English. What is left Japanese came from the course: a hint, a probe's
request, a tool's description or output, the reference a piece falls back to.
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import re
import sys

import pytest

from harness_lab import lessons
from harness_lab.lessons import english_pieces
from harness_lab.text import speaking
from tests.lessons import answers
from tests.lessons import answers_capstone as capstone
from tests.lessons import answers_counts_and_flags as counts
from tests.lessons import answers_misreadings as misreadings
from tests.lessons import answers_more as more
from tests.lessons import answers_probes as probes
from tests.lessons import answers_reuse as reuse
from tests.lessons import answers_slips as slips
from tests.lessons import answers_state_and_types as state
from tests.lessons import answers_thinking as thinking
from tests.lessons import answers_valves as valves
from tests.lessons import answers_whole_harness as whole
from tests.lessons.answers6 import WRONG_RUN_AGENT, loaded
from tests.lessons.test_capstone import at_point
from tests.lessons.test_english_probe_texts import ENGLISH_LEARNER

JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]+")
# One of a thing counted in the plural: a loop that sent one request was told "1 model requests".
ONE_IN_THE_PLURAL = re.compile(r"(?<![\d.,])\b1 (?:model )?(?:requests|turns|tokens|calls|messages|results|times)\b")

PIECES = answers.WRONG + more.WRONG_MORE + more.STALLED + probes.WRONG_PROBES + reuse.WRONG_REUSE
PIECES += slips.WRONG_SLIPS + state.WRONG_STATE + misreadings.WRONG_MISREAD + counts.WRONG_COUNTS
LOOPS = WRONG_RUN_AGENT + more.WRONG_RUN_AGENT_MORE + more.STALLED_RUN_AGENT + probes.WRONG_RUN_AGENT_PROBES
LOOPS += reuse.WRONG_RUN_AGENT_REUSE + slips.WRONG_RUN_AGENT_SLIPS + state.WRONG_RUN_AGENT_STATE
LOOPS += valves.WRONG_RUN_AGENT_VALVES + thinking.WRONG_RUN_AGENT_6 + misreadings.WRONG_RUN_AGENT_MISREAD
LOOPS += counts.WRONG_RUN_AGENT_COUNTS + whole.WRONG_RUN_AGENT_ROUND_17


def in_english(source: str) -> str:
    """The learner's words in English: the usual ones translated, any other Japanese run as a word."""
    for ja, en in ENGLISH_LEARNER.items():
        source = source.replace(ja, en)
    return JAPANESE.sub("words", source)


@functools.cache
def english_module(name: str) -> dict:
    """An answers module's namespace with its functions as an English learner writes them; the functions it
    takes from another answers module in English too, and the pieces it calls as an English kernel hands
    them out (an English learner's run_tools, not the Japanese reference the table imports)."""
    module = sys.modules[name]
    namespace = dict(vars(module))
    for key, value in vars(module).items():
        home = getattr(value, "__module__", "") or ""
        if inspect.isfunction(value) and home != name and home.startswith("tests.lessons.answers"):
            namespace[key] = english_module(home)[value.__name__]
    for key, value in list(namespace.items()):  # a Japanese reference, imported under any name
        namespace[key] = REFERENCES.get(id(value), value)
        if isinstance(value, str) or (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
            namespace[key] = ast.literal_eval(in_english(repr(value)))  # the learner's words kept in a constant
    own = [f for f in vars(module).values() if inspect.isfunction(f) and f.__module__ == name]
    source = "\n\n".join(in_english(inspect.getsource(f)) for f in own)
    filename = f"<{name} in English>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)  # the line a hint shows
    exec(compile(source, filename, "exec"), namespace)
    return namespace


# Each Japanese reference the tables import, and the English twin an English kernel hands out in its place.
REFERENCES = {id(lessons.piece(name, n).japanese): twin for (name, n), twin in english_pieces.TWINS.items()}


CASES = (
    [pytest.param(at_point, (name, point), fn, key, id=f"{fn.__name__}") for name, fn, point, key in PIECES]
    + [
        pytest.param(at_point, ("run_agent", point, 6), source, key, id=f"run_agent-{key.rsplit('.', 1)[1]}-{n}")
        for n, (source, point, key) in enumerate(LOOPS)
    ]
    + [
        pytest.param(at_point, ("my_agent", point), source, key, id=f"my_agent-{key.rsplit('.', 1)[1]}-{n}")
        for n, (source, point, key) in enumerate(
            capstone.WRONG_MY_AGENT + misreadings.WRONG_MY_AGENT_MISREAD + counts.WRONG_MY_AGENT_COUNTS
        )
    ]
)


@pytest.fixture(autouse=True)
def workbook_here(workbook_here, tmp_path, monkeypatch):  # conftest.py's, and an English README beside it
    # A read_file that ignores its root reads the learner's own README.md, and the hint quotes it as it
    # is: that is the learner's file, in the learner's language, so here it is an English one.
    (tmp_path / "README.md").write_text("# My English notes\n\nWhat the wrong read found.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(("piece", "where", "wrong", "key"), CASES)
def test_an_english_learner_is_told_every_hint_in_english(piece, where, wrong, key):
    if isinstance(wrong, str):
        fn = loaded(in_english(wrong), "my_agent" if where[0] == "my_agent" else "run_agent")
    else:
        fn = english_module(wrong.__module__)[wrong.__name__]
    # A stalled loop never returns: it is cut off at a short limit, as in test_answers_in_other_styles.py,
    # not the 10 s a learner's slow probe is given.
    timeout = 1.5 if key.endswith("stalled") else 10.0
    with speaking("en"):
        text = lessons.judge(piece(*where), fn, timeout=timeout).text()
    assert not (found := JAPANESE.search(text)), text[max(found.start() - 300, 0) : found.end() + 100]
    assert not (found := ONE_IN_THE_PLURAL.search(text)), text[max(found.start() - 100, 0) : found.end() + 100]
