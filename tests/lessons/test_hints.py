"""What the checks say, beyond which hint (issue 28.4-28.6): a cause is said once, every hint is a whole
sentence in the TODO's own names, every fallback says how to read the reference, a blank prediction
keeps the answer back, the steps are behind ``lessons.hint``, and level 2's first criterion says
what it judges."""

from __future__ import annotations

import functools
import inspect
import json
import re

import pytest

import harness_lab.grading  # noqa: F401  (adds the graders' entries)
from harness_lab import lessons
from harness_lab.text import CATALOG, t
from tests.lessons.answers import tools_return_the_message, tools_text_blocks_too
from tests.lessons.answers6 import loaded
from tests.lessons.answers_habits_gates import approval_refuses_words
from tests.lessons.answers_habits_loop import WRONG_RUN_AGENT_HABITS
from tests.lessons.answers_misreadings import stop_prints_it
from tests.lessons.answers_more_loop import tools_strings_in_a_list
from tests.lessons.test_capstone import at_point

LESSON_TEXT = {key: ja for key, (ja, _) in CATALOG.items() if key.startswith("lesson.")}


def tools_return_nothing(content, impls):  # the TODO's raise replaced by a return, nothing written yet
    return []


def approvals_return_nothing(content, impls, approve):
    return []


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("run_tools", tools_text_blocks_too),
        ("run_tools", tools_return_the_message),
        ("run_tools", tools_return_nothing),
        ("run_tool_uses", approvals_return_nothing),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_one_cause_is_named_once_and_the_other_points_point_back_to_it(name, wrong):
    lines = lessons.point_lines(lessons.judge(lessons.piece(name), wrong))
    assert all(line.startswith("×") for line in lines)
    assert "AttributeError" not in "".join(lines[1:])  # the raw error, if any, only with the first hint
    assert [line.rsplit("ヒント: ", 1)[1] for line in lines[1:]] == [t("lesson.same_cause")] * (len(lines) - 1)


def test_text_in_a_list_is_named_as_the_shape_not_as_a_missing_message():
    # ["..."] holds the failure's message: point 3 has the shape point 2 named, not a message left out
    lines = lessons.point_lines(lessons.judge(lessons.piece("run_tools"), tools_strings_in_a_list))
    assert lines[1].endswith(t("lesson.l2.run_tools.not_text_blocks"))
    assert lines[2].endswith(t("lesson.same_cause"))
    assert "Input should be an object" in lines[3]  # the API's own words for it


def test_a_stop_message_printed_on_every_stop_is_one_cause_said_once():
    lines = lessons.point_lines(lessons.judge(lessons.piece("stop_message"), stop_prints_it))
    missed = [line for line in lines if line.startswith("×")]
    assert len(missed) == 3 and missed[0].endswith(t("lesson.l7.stop_message.printed"))
    assert all(line.endswith(t("lesson.same_cause")) for line in missed[1:])


# What a learner hands in before writing anything: the TODO's raise replaced by a bare return.
STUBS = {
    "list": "return []",
    "none": "return None",
    "text": 'return ""',
    "pass": "pass",
    "dict": "return {{}}",
    "input": "return {first}",  # its own input handed back
}
# A later point may name a cause of its own only where the stub truly has a second one too: a read_file
# that raises for nothing, a signature that is one string for every call, a stop message of "" not None.
SECOND_CAUSES = {
    **{("read_file", stub): {"lesson.l6.read_file.returned_refusal"} for stub in STUBS},
    ("signature_of", "text"): {"lesson.l4.signature.collides"},
    ("stop_message", "text"): {"lesson.l7.stop_message.not_none"},
}


def _stub(wanted, body: str):
    parameters = inspect.signature(wanted.japanese).parameters
    space: dict = {}
    source = f"def {wanted.name}({', '.join(map(str, parameters.values()))}):\n    {body}\n"
    exec(source.format(first=next(iter(parameters))), space)  # the piece's own parameters: no call that fails on them
    return space[wanted.name]


# Two tests below read the same verdict on each stub, one its causes and one their wording: each piece's
# stub is judged once for both (a verdict is all its points, each a limited run of its own).
@functools.cache
def _stub_verdict(wanted, stub: str):
    return lessons.judge(wanted, _stub(wanted, STUBS[stub]))


@pytest.mark.parametrize("stub", STUBS)
@pytest.mark.parametrize("wanted", lessons.ALL, ids=lambda p: f"{p.name}-{p.lesson}")
def test_a_stub_names_its_cause_once_and_no_later_point_guesses_another(wanted, stub):
    checks = _stub_verdict(wanted, stub).checks
    missed = [check.key for check in checks if not check.passed]
    allowed = {missed[0], *SECOND_CAUSES.get((wanted.name, stub), ())}
    assert missed and [key for key in missed if key not in allowed] == []


def test_a_text_block_error_names_the_rule_not_only_the_exception():
    first = lessons.point_lines(lessons.judge(lessons.piece("run_tools"), tools_text_blocks_too))[0]
    # The default model's thinking block comes first, so it is the block the learner's code trips on.
    assert 'block.type が "tool_use" のブロックだけ' in first and "'ThinkingBlock' object has no attribute" in first


def tools_numbered_key(content, impls):  # right but for one key more, and no string: the API refuses it
    results = []
    for block in content:
        if block.type == "tool_use":
            try:
                output = impls[block.name](**block.input)
                text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, 1: "x"})
            except Exception as err:
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"{err}", "is_error": True})
    return results


def test_a_result_key_that_is_no_string_is_named_as_an_extra_key_not_as_a_crash_of_the_learners_code():
    verdict = lessons.judge(lessons.piece("run_tools"), tools_numbered_key)
    missed = {check.number: check.key for check in verdict.checks if not check.passed}
    assert missed == {4: "lesson.l2.result_extra_key"}, verdict.text()


# A Japanese hint that stops at a particle has lost its verb (「… sort_keys=True を」).
PARTICLE_END = re.compile(r"[をにでがとはへもの、]$")


def test_no_hint_ends_in_the_middle_of_a_sentence():
    cut = {key: text for key, text in LESSON_TEXT.items() if PARTICLE_END.search(text.strip())}
    assert cut == {}


def test_hints_use_the_names_the_todo_cells_use():
    bare = re.compile(r"(?<![.\w])(turn|finished|stopped)\(")  # the TODO says lessons.turn(...)
    assert {key: text for key, text in LESSON_TEXT.items() if bare.search(text)} == {}


def test_every_fallback_names_how_to_read_the_reference(tmp_path, workbook_here, capsys):
    def run_tools(content, impls):
        return []

    lessons.check("run_tools", run_tools)  # a wrong piece: the lesson goes on with the reference
    assert 'lessons.show("run_tools")' in capsys.readouterr().out.splitlines()[-1]
    lessons.use("run_tools")  # no workbook yet
    assert 'lessons.show("run_tools")' in capsys.readouterr().out
    workbook_here.write_text("x = (\n", encoding="utf-8")
    lessons.use("next_step")  # a workbook that does not load
    assert 'lessons.show("next_step")' in capsys.readouterr().out

    def run_agent(client, user_input, tools, tool_impls, approve=None):
        raise NotImplementedError

    lessons.check("run_agent", run_agent, lesson=6)  # a name two lessons write: the call names the lesson
    assert 'lessons.show("run_agent", lesson=6)' in capsys.readouterr().out
    fallbacks = [key for key in LESSON_TEXT if "reference" in CATALOG[key][1] and "{show}" not in CATALOG[key][0]]
    assert [key for key in fallbacks if key.startswith(("lesson.check.", "lesson.use."))] == []


def test_a_blank_prediction_keeps_the_answer_back(capsys):
    assert lessons.compare({"requests": None, "turns": None}, {"requests": 3, "turns": 2}) is False
    out = capsys.readouterr().out
    assert "3" not in out and "2" not in out and "MY_GUESS" in out
    assert lessons.compare({"requests": 3, "turns": None}, {"requests": 3, "turns": 7}) is False
    out = capsys.readouterr().out
    assert "予想どおり 3" in out and "7" not in out
    assert lessons.compare(None, {"requests": 4}) is False and "4" not in capsys.readouterr().out


def test_a_row_missing_from_a_table_of_predictions_is_named_and_its_answer_kept_back(capsys):
    table = {"2. after": {"requests": 3}}
    assert lessons.compare(table, {"requests": 4}, row="1. top") is False
    out = capsys.readouterr().out
    assert "「1. top」" in out and "2. after" in out and "4" not in out
    assert lessons.compare(table, {"requests": 3}, row="2. after") is True
    assert lessons.compare(None, {"requests": 4}, row="1. top") is False and "「1. top」" in capsys.readouterr().out


# What gives a prediction's answer away, by notebook (both editions): the shipped notebooks leave every
# guess blank, so the stored output of each cell that compares must hold none of it (nbval keeps the
# stored outputs equal to a fresh run's).
GIVEAWAYS = {
    "04_human_in_the_loop": ("sandbox/ の中身", "この時点の sandbox/", "sandbox/ holds", "sandbox/ right now"),
    "05_full_harness": ("| `abab` |",),
    "06_api_2026": ("→ ",),
}


@pytest.mark.parametrize("name", sorted(GIVEAWAYS))
@pytest.mark.parametrize("edition", ["", "en/"])
def test_a_blank_guess_in_a_shipped_notebook_shows_nothing_of_the_answer(name, edition):
    from pathlib import Path

    import nbformat

    nb = nbformat.read(Path(__file__).resolve().parents[2] / "notebooks" / f"{edition}{name}.ipynb", as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and "lessons.compare(MY_GUESS" in c.source]
    assert cells
    for cell in cells:
        shown = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)
        assert "MY_GUESS" in shown, shown  # the notice that the answer waits for a guess
        leaked = [g for g in GIVEAWAYS[name] if g in shown]
        assert not leaked, (leaked, shown)


def test_the_steps_are_behind_a_hint_the_learner_opens(capsys):
    lessons.hint("read_file")
    steps = capsys.readouterr().out
    assert "Path(root).resolve()" in steps and "is_relative_to" in steps
    lessons.hint("run_agent", lesson=6)
    assert "next_step(response)" in capsys.readouterr().out
    lessons.hint("run_tools")  # a piece whose steps stay in its TODO cell
    assert 'lessons.show("run_tools")' in capsys.readouterr().out


def test_every_todo_that_points_to_a_hint_has_one(capsys):
    from pathlib import Path

    sources = (Path(__file__).resolve().parents[2] / "notebooks" / "src").glob("0*.py")
    asked = {
        m for path in sources for m in re.findall(r'lessons\.hint\(("\w+"(?:, lesson=\d)?)\)', path.read_text("utf-8"))
    }
    assert len(asked) >= 4
    for call in asked:
        name, _, lesson = call.strip('"').partition('", lesson=')
        lessons.hint(name, lesson=int(lesson) if lesson else None)
        assert capsys.readouterr().out.startswith("手順"), call


def test_level_2s_first_criterion_says_it_also_judges_what_the_loop_already_has():
    from harness_lab.grading.level2 import GAP_OPTIONS

    title = t("grade.l2.c1.title")
    present = [key for key, missing in GAP_OPTIONS.items() if not missing]
    assert present and "停止条件" in title and "すでに" in title  # naming reassign beside stop_condition fails it


@pytest.mark.parametrize("stub", STUBS)
@pytest.mark.parametrize("wanted", lessons.ALL, ids=lambda p: f"{p.name}-{p.lesson}")
def test_a_stubs_cause_is_worded_once_and_each_later_point_with_it_points_back(wanted, stub):
    # next_step's None was told once per stop_reason ("with stop_reason tool_use ...", "... end_turn ..."),
    # and stop_message's once per stop: one cause, in as many wordings as points.
    verdict = _stub_verdict(wanted, stub)
    lines = lessons.point_lines(verdict)
    first = next(check.key for check in verdict.checks if not check.passed)
    again = [line for check, line in zip(verdict.checks, lines, strict=True) if not check.passed and check.key == first]
    assert [line.rsplit("ヒント: ", 1)[1] for line in again[1:]] == [t("lesson.same_cause")] * (len(again) - 1), lines


def test_a_no_that_ran_says_approve_answers_true_or_false_and_anything_but_a_yes_is_refused():
    # approve's False compared with the words of a no ("n", "no"): the hint names the rule, not only the call that ran
    words = next(source for source, *_ in WRONG_RUN_AGENT_HABITS if "'いいえ'" in source)
    for verdict in (
        lessons.judge(at_point("run_tool_uses", 2), approval_refuses_words),
        lessons.judge(at_point("run_agent", 6, 6), loaded(words)),
    ):
        hint = verdict.checks[0].hint
        assert '"no"' in hint and "if not approve(" in hint, hint
