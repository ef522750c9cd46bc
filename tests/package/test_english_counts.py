"""English never counts one thing in the plural: an entry that puts a count before the things it counts
("{rounds} tool turns") read "1 tool turns" when the learner's loop made one. Every English entry with a
field set before a counted noun is formatted with that field at 1, the others left as words."""

from __future__ import annotations

import re
import string

import pytest

import harness_lab.cli_catalog  # these four imports add their layers' entries
import harness_lab.grading
import harness_lab.lessons
import harness_lab.ui  # noqa: F401
from harness_lab.text import CATALOG, speaking, t

# What the course counts, in the plural; "runs" and "calls" are verbs too ("{tool} runs when called").
THINGS = (
    "bytes|characters|errors|files|items|lines|messages|names|notebooks|requests|results|seconds"
    "|times|tokens|tool_results|tools|tries|turns|blocks|tool calls|tool runs|calls"
)
SORTS = "completed|input|model|more|older|shortest|tool|tool_use"  # "{n} more characters", "{uses} tool_use blocks"
# A field set right before the things, or naming them as its spec ("{rounds:tool turns}", harness_lab/text.py)
COUNTED = re.compile(rf"\{{(\w+)(?:\}} |:)(?:(?:{SORTS}) )?(?:{THINGS})\b")
# "two {tool} calls" names the tool; the count there is the "two"
ONE_IN_THE_PLURAL = re.compile(rf"(?<![\d.,])(?<!two )\b1 (?:(?:{SORTS}) )?(?:{THINGS})\b")

COUNTING = sorted(key for key, (_, en) in CATALOG.items() if COUNTED.search(en))


def test_the_entries_that_count_things_are_found():
    assert len(COUNTING) > 50  # the scan finds the catalogs' counts, not nothing


@pytest.mark.parametrize("key", COUNTING)
def test_one_thing_is_counted_in_the_singular(key):
    en = CATALOG[key][1]
    fields = {name for _, name, _, _ in string.Formatter().parse(en) if name}
    for counted in {match[1] for match in COUNTED.finditer(en)}:
        values = dict.fromkeys(fields, "some") | {counted: 1}
        with speaking("en"):
            text = t(key, **values)
        assert not (found := ONE_IN_THE_PLURAL.search(text)), f"{found[0]!r} in {text}"


def test_a_numbers_own_format_spec_is_still_a_format_spec(monkeypatch):
    # only a spec made of words names what a count counts; "{seconds:.1f}" formats the number as str.format does
    monkeypatch.setitem(CATALOG, "test.spec", ("{seconds:.1f} 秒、{tries} 回", "{seconds:.1f} s, {tries:tries}"))
    with speaking("en"):
        assert t("test.spec", seconds=2.25, tries=1) == "2.2 s, 1 try"
        assert t("test.spec", seconds=2.25, tries=3) == "2.2 s, 3 tries"
