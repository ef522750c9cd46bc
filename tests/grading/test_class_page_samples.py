"""The class page shows, beside a common hint, the part of the sample answer the hint points at.

The sample was the first 40 lines of the learner's answer cells: level 1's ANSWERS cell comes after
line 40, so a hint on ANSWERS["deny"] sat beside 40 lines of POLICY and run_tool_uses, cut just
before the answer it was about.
"""

from __future__ import annotations

import html
import re

from class_submissions import answer_cells, solution, starter

from harness_lab.grading.class_report import page
from harness_lab.grading.class_sample import SAMPLE_LINES
from harness_lab.grading.classroom import ClassResult, Row
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.report import Check, Report
from harness_lab.text import speaking, t


def _answer(nb) -> str:
    return "\n\n".join(cell.source.strip("\n") for cell in answer_cells(nb))  # as classroom.py keeps it


def _sample_on_page(answer: str, hint: str) -> str:
    check = Check(3, "title", False, hint, "", "grade.l1.c3.deny_answer")
    grade = NotebookGrade("ann/level1_tiered_policy.ipynb", "level1", "ok", (Report("level1", (check,)),))
    with speaking("en"):
        text = page(
            ClassResult(("ann",), (Row("ann", "level1_tiered_policy.ipynb", grade, answer=answer),), (), "v", 60.0, 1.0)
        )
    return html.unescape(re.search(r"<pre>(.*?)</pre>", text, re.DOTALL).group(1))


def test_a_hint_on_answers_shows_the_learners_answers_cell_not_the_first_lines():
    answer = _answer(solution("level1")).replace('"error_result"', '"drop"')
    assert len(answer.splitlines()) > SAMPLE_LINES  # the case: the cell comes after the old cut
    shown = _sample_on_page(
        answer, "ANSWERS[\"deny\"] is 'drop' (skip it silently): the model would not learn what happened."
    )
    assert "ANSWERS = {" in shown and '"deny": "drop"' in shown, shown
    assert "def run_tool_uses" not in shown and "POLICY = {" not in shown, shown  # no flood of the other cells


def test_a_hint_quoting_the_line_that_raised_shows_the_function_holding_it():
    answer = _answer(solution("level1")).replace("POLICY.get(name, DEFAULT_TIER)", "POLICY[name]")
    hint = "Calling brand_new_tool raised: KeyError: 'brand_new_tool' (tier_of, the line `return POLICY[name]`)."
    shown = _sample_on_page(answer, hint)
    assert "def tier_of(name):" in shown and "return POLICY[name]" in shown, shown
    assert "def run_tool_uses" not in shown, shown


def test_a_hint_that_names_no_definition_shows_the_answer_from_its_top_within_the_limit():
    answer = _answer(starter("level1"))
    shown = _sample_on_page(answer, "No tool behaved as deny.")
    assert shown.startswith(answer.splitlines()[0]), shown
    assert len(shown.splitlines()) <= SAMPLE_LINES + 2, shown  # the lines, a blank line and the note


def test_a_common_hint_is_worded_in_the_pages_language_when_a_learner_of_that_edition_got_it():
    # The sample was the shortest answer whatever its edition: one English-edition learner with a
    # three-line answer worded, in English, the hint that a Japanese class got in Japanese.
    def row(learner, edition, answer):
        check = Check(3, "title", False, f"hint told in {edition}", "", "grade.l1.c3.deny_answer")
        grade = NotebookGrade(f"{learner}/level1_tiered_policy.ipynb", "level1", "ok", (Report("level1", (check,)),))
        return Row(learner, "level1_tiered_policy.ipynb", grade, answer=answer, edition=edition)

    rows = (row("aoi", "ja", "x = 1\n" * 30), row("mal", "en", "x = 1"), row("ren", "ja", "x = 1\n" * 20))
    for language, wording, learner in (("ja", "hint told in ja", "ren"), ("en", "hint told in en", "mal")):
        with speaking(language):
            text = html.unescape(page(ClassResult(("aoi", "mal", "ren"), rows, (), "v", 60.0, 1.0)))
            sampled = t("grade.class.sample", learner=learner, notebook="level1_tiered_policy.ipynb")
        assert wording in text and f"hint told in {'en' if language == 'ja' else 'ja'}" not in text, language
        assert sampled in text, language  # the shortest answer of those told in the page's language


def test_an_answer_nested_past_the_parsers_limit_is_shown_from_its_top():
    # Python 3.11's parser says "too complex" with a MemoryError (at 4 KB of nesting), which the page's
    # sample did not expect: the class page was not written.
    answer = "x = " + "(" * 199 + "-" * 3700 + "1"
    shown = _sample_on_page(answer, "x is wrong")
    assert shown.startswith("x = ((("), shown[:100]


def test_the_runaway_hint_on_the_untouched_starter_shows_the_loop_that_lacks_the_check():
    # The hint named only MAX_TURNS: the sample beside it was the line `MAX_TURNS = 8`, not the loop.
    with speaking("en"):
        hint = t("grade.l2.c3.runaway")
    shown = _sample_on_page(_answer(starter("level2")), hint)
    assert "def run_agent" in shown and 'while response.stop_reason == "tool_use":' in shown, shown
