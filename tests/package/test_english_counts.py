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


# A count the Japanese side makes: a field right before its counter (「{calls} 回」「{uses} 個」「{rounds} ターン」).
JAPANESE_COUNT = re.compile(r"\{(\w+)\}\s*(?:回|個|件|ターン|トークン|文字|行|冊|人)")
SINGULAR = "byte|character|error|file|item|line|message|name|notebook|request|result|second|time|token|tool_result|tool|try|turn|block|call"


def hedged_counts(ja: str, en: str) -> list[str]:
    """English counts that dodge the count's own noun: "request(s)", or a counted field before a singular noun."""
    found = re.findall(r"\w+\(s\)", en)
    for field in {match[1] for match in JAPANESE_COUNT.finditer(ja)}:
        found += re.findall(rf"\{{{field}\}} (?:(?:{SORTS}) )?(?:{SINGULAR})(?![\w(])", en)
    return found


def test_an_english_count_says_its_noun_in_the_number_it_has():
    # "left after {requests} request(s)", "for {uses} tool_use block(s)", "({calls} request)": the Japanese
    # counted (リクエスト {requests} 回), the English hedged or put the noun in the singular whatever the count.
    # A count's spec ({requests:requests}) reads "1 request", "3 requests" (harness_lab/text.py).
    assert [f"{key}: {slip}" for key, (ja, en) in CATALOG.items() for slip in hedged_counts(ja, en)] == []


def test_a_hedged_count_is_found_and_a_spelt_out_one_is_not():
    assert hedged_counts("リクエスト {requests} 回", "after {requests} request(s)") == ["request(s)"]
    assert hedged_counts("{calls} 回", "({calls} request)") == ["{calls} request"]
    assert hedged_counts("{uses} 個", "for {uses} tool_use block") == ["{uses} tool_use block"]
    assert hedged_counts("{calls} 回", "after {calls:requests}; {calls} requests in all") == []
    assert hedged_counts("{tool} を呼ぶ", "one {tool} call") == []  # a name, not a count
