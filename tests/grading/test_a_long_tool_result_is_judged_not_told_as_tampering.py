"""A learner's ``run_tool_uses`` whose results hold megabytes of text: judged on what they say.

The criteria's children send the grader plain facts of each result, its text among them, and an answer over
``ANSWER_LIMIT`` (1 MB) is one no grader sends: learner code writing to the answer pipe itself. A right answer
that put 2 MB after each tool's output made the grader's own honest answer that large, and criterion 1 read
"an answer that correct code would never return arrived ... leave harness_lab.grading alone": tampering, for
code that never touched the grader. A result's text is now kept to its first few thousand characters, and the
answer is judged: right but for its size, which the API refuses when the results are sent on (criterion 3).
"""

from __future__ import annotations

from answers_level1 import RIGHT

from harness_lab.grading.level1 import grade_level1

PADDING = " " * 2_000_000


def _padded(run_tool_uses):
    def run(content, tool_impls, approve):
        results = run_tool_uses(content, tool_impls, approve)
        return [dict(r, content=r["content"] + PADDING) if isinstance(r.get("content"), str) else r for r in results]

    return run


def test_results_of_megabytes_get_the_grade_their_words_earn_not_tampering():
    policy, default, run_tool_uses, answers = RIGHT[next(iter(RIGHT))]
    report = grade_level1(policy, default, _padded(run_tool_uses), answers, timeout=30.0)
    # was criterion 1 "grade.tampered" (the grader's own summary over the answer limit)
    assert [(c.number, c.passed, c.key) for c in report.checks] == [
        (1, True, ""),
        (2, True, ""),
        (3, False, "grade.l1.c3.api_rejected"),
    ]
    assert "prompt is too long" in report.checks[2].hint
