"""Learner text of megabytes in what a criterion's child sends the judge: judged on its words, not as tampering.

The criteria's children send the judge plain values of what the learner's code gave (level 1: each result's
text; level 2: what ``run_agent`` returned, ``MISSING``'s keys), and an answer over ``ANSWER_LIMIT`` (1 MB) is
one no grader sends: learner code writing to the answer pipe itself. A right answer that put 2 MB into its
results or its return value, or a ``MISSING`` key of 3 MB, made the grader's own honest answer that large,
and the criterion read "an answer that correct code would never return arrived ... leave harness_lab.grading
alone": tampering, for code that never touched the grader. What a judge searches is now kept to both its
ends (``wire.ends``), and an option key to its first 200 characters.
"""

from __future__ import annotations

import answers_level1
import answers_level2

from harness_lab.grading.level1 import grade_level1
from harness_lab.grading.level2 import grade_level2

PADDING = " " * 2_000_000


def _verdicts(report) -> list[tuple[int, bool, str]]:
    return [(c.number, c.passed, c.key) for c in report.checks]


def test_level1_results_of_megabytes_get_the_grade_their_words_earn():
    policy, default, run_tool_uses, answers = next(iter(answers_level1.RIGHT.values()))

    def padded(content, tool_impls, approve):
        results = run_tool_uses(content, tool_impls, approve)
        return [dict(r, content=r["content"] + PADDING) if isinstance(r.get("content"), str) else r for r in results]

    report = grade_level1(policy, default, padded, answers, timeout=30.0)
    # was criterion 1 "grade.tampered"; right but for its size, which the API refuses when the results are sent on
    assert _verdicts(report) == [(1, True, ""), (2, True, ""), (3, False, "grade.l1.c3.api_rejected")]
    assert "prompt is too long" in report.checks[2].hint


def test_level2_a_return_value_of_megabytes_ending_in_the_answer_passes():
    missing, run_agent, max_turns = next(iter(answers_level2.RIGHT.values()))

    def padded(*args, **kwargs):
        returned = run_agent(*args, **kwargs)
        return PADDING + returned if isinstance(returned, str) else returned

    # was criterion 3 "grade.tampered": the answer and the stop message are there, after 2 MB of spaces
    assert _verdicts(grade_level2(missing, padded, max_turns, timeout=30.0)) == [(n, True, "") for n in (1, 2, 3)]


def test_level2_a_missing_key_of_megabytes_is_read_as_no_option():
    missing, run_agent, max_turns = next(iter(answers_level2.RIGHT.values()))
    report = grade_level2({**missing, "x" * 3_000_000: ["spinning"]}, run_agent, max_turns, timeout=30.0)
    # was criteria 1 and 2 "grade.tampered"; criterion 2 holds its pairs, each key an option's
    assert _verdicts(report) == [(1, False, "grade.l2.unknown"), (2, True, ""), (3, True, "")]
    assert "'xxxx" in report.checks[0].hint and len(report.checks[0].hint) < 1000
