"""A wrong piece misses several points at once: each missed point's hint names the real cause, not the
one that point usually meets (a signature keeping the id is told about the id on the order point too,
where its sorted parts differ only because the swapped calls got each other's ids)."""

from __future__ import annotations

import json

import pytest

from harness_lab import lessons
from harness_lab.text import t
from tests.lessons import answers, answers_more
from tests.lessons.answers6 import USED, loaded, variant
from tests.lessons.answers_swallowed import WRONG_RUN_AGENT_SWALLOWED, WRONG_SWALLOWED

# Every point each wrong signature misses, and why.
SIGNATURES = [
    (answers.sig_id_name_and_input, {1: "ids", 3: "ids"}),
    (answers.sig_with_ids, {1: "ids", 2: "collides", 3: "ids"}),
    (answers.sig_first_call_only, {2: "one_call", 3: "one_call"}),
    (answers.sig_as_set, {2: "twice"}),
    (answers.sig_names_and_inputs_apart, {2: "pairs"}),
    (answers.sig_values_only, {1: "key_order", 2: "pairs"}),
    (answers.sig_sorted_by_name, {3: "call_order"}),
    (answers.sig_call_order, {3: "call_order"}),
    (answers.sig_name_only, {2: "collides"}),
    (answers_more.sig_with_text, {1: "text"}),
    (answers_more.sig_with_thinking, {1: "text"}),
]


def sig_unstable(content):  # a new value on every call: the same response never signs the same
    sig_unstable.calls = getattr(sig_unstable, "calls", 0) + 1
    return f"{sig_unstable.calls}:" + answers.good_signature(content)


def sig_last_call_only(content):  # one variable overwritten in the for: only the turn's last call is left
    for block in content:
        if block.type == "tool_use":
            last = f"{block.name}({json.dumps(block.input, sort_keys=True, ensure_ascii=False)})"
    return last


CASES = [
    *SIGNATURES,
    (sig_unstable, {1: "unstable", 3: "unstable"}),
    (sig_last_call_only, {2: "one_call", 3: "one_call"}),  # point 2 said a set merged a repeated call
]


@pytest.mark.parametrize("wrong, missed", CASES, ids=[wrong.__name__ for wrong, _ in CASES])
def test_every_missed_signature_point_names_its_own_cause(wrong, missed):
    verdict = lessons.judge(lessons.piece("signature_of"), wrong)
    got = {check.number: check.key.rsplit(".", 1)[-1] for check in verdict.checks if not check.passed}
    assert got == missed, verdict.text()


def _missed(verdict) -> dict:
    return {check.number: check.key for check in verdict.checks if not check.passed}


@pytest.mark.parametrize("name, wrong, missed", WRONG_SWALLOWED, ids=[w[1].__name__ for w in WRONG_SWALLOWED])
def test_a_hidden_mistake_is_named_on_every_point_it_misses(name, wrong, missed):
    # an except: pass, a "false" flag, a yes compared with "y": each later point says the one cause again
    verdict = lessons.judge(lessons.piece(name), wrong)
    assert _missed(verdict) == missed, verdict.text()


@pytest.mark.parametrize(
    "source, missed",
    WRONG_RUN_AGENT_SWALLOWED,
    ids=[next(iter(m.values())).rsplit(".", 1)[-1] for _, m in WRONG_RUN_AGENT_SWALLOWED],
)
def test_a_whole_harness_hiding_its_mistake_is_named_on_every_point_it_misses(source, missed):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(source))
    assert _missed(verdict) == missed, verdict.text()


def test_one_cause_on_several_points_is_said_once_in_the_lesson():
    lines = lessons.point_lines(lessons.judge(lessons.piece("run_tools"), WRONG_SWALLOWED[0][1]))
    assert lines[2].endswith(t("lesson.l2.run_tools.failure_dropped")) and lines[3].endswith(t("lesson.same_cause"))


# Counts some usage fields short, each with the fields it leaves out. The cache reads of the probe's run add
# up to its input and cache writes, so a count of reads and output is short by as much as one of input,
# writes and output: the run without caching tells which.
FIELDS_LEFT_OUT = [
    (
        "response.usage.input_tokens + (response.usage.cache_read_input_tokens or 0)",
        ("cache_creation_input_tokens", "output_tokens"),
    ),
    (
        "response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0)",
        ("cache_read_input_tokens", "output_tokens"),
    ),
    (
        "(response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens",
        ("input_tokens", "cache_creation_input_tokens"),
    ),
    (USED.replace(" + response.usage.output_tokens", ""), ("output_tokens",)),
]


@pytest.mark.parametrize("counted, missing", FIELDS_LEFT_OUT, ids=["+".join(m) for _, m in FIELDS_LEFT_OUT])
def test_a_count_some_fields_short_is_told_the_fields_it_left_out(counted, missing):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(variant((USED, counted))))
    named = t("lesson.fields_joiner").join(missing)
    hints = {check.number: check.hint for check in verdict.checks if not check.passed}
    assert sorted(hints) == [1, 4], verdict.text()
    assert all(f"{named} の " in hint for hint in hints.values()), verdict.text()
