"""The lessons' checks: each reference passes, each wrong version gets the hint naming its cause, an
unwritten TODO says so, and a passing piece is kept in the workbook for the next notebook."""

from __future__ import annotations

import functools
import os
import re
import signal
import textwrap
import threading
import time
from pathlib import Path

import nbformat
import pytest

from harness_lab import lessons
from harness_lab.text import CATALOG, t
from tests.lessons.answers import WRONG
from tests.lessons.answers6 import RIGHT_RUN_AGENT, WRONG_RUN_AGENT, loaded, variant
from tests.lessons.answers_capstone import RIGHT_MY_AGENT, WRONG_MY_AGENT
from tests.lessons.answers_capstone_round_20 import WRONG_MY_AGENT_ROUND_20
from tests.lessons.answers_counts_and_flags import WRONG_COUNTS, WRONG_MY_AGENT_COUNTS, WRONG_RUN_AGENT_COUNTS
from tests.lessons.answers_habits import WRONG_HABITS
from tests.lessons.answers_habits_gates import WRONG_HABITS_GATES
from tests.lessons.answers_habits_loop import WRONG_RUN_AGENT_HABITS
from tests.lessons.answers_interrupts_and_compaction import WRONG_ROUND_16
from tests.lessons.answers_misreadings import WRONG_MISREAD, WRONG_MY_AGENT_MISREAD, WRONG_RUN_AGENT_MISREAD
from tests.lessons.answers_mixups import WRONG_MIXUPS, WRONG_RUN_AGENT_MIXUPS
from tests.lessons.answers_more import STALLED, STALLED_RUN_AGENT, WRONG_MORE, WRONG_RUN_AGENT_MORE
from tests.lessons.answers_probes import WRONG_PROBES, WRONG_RUN_AGENT_PROBES
from tests.lessons.answers_reuse import WRONG_REUSE, WRONG_RUN_AGENT_REUSE
from tests.lessons.answers_round_18 import WRONG_ROUND_18
from tests.lessons.answers_round_18_harness import WRONG_RUN_AGENT_ROUND_18
from tests.lessons.answers_round_19 import WRONG_ROUND_19
from tests.lessons.answers_round_19_harness import WRONG_RUN_AGENT_ROUND_19
from tests.lessons.answers_round_20 import WRONG_ROUND_20
from tests.lessons.answers_round_20_harness import WRONG_RUN_AGENT_ROUND_20
from tests.lessons.answers_round_21 import WRONG_ROUND_21
from tests.lessons.answers_round_21_harness import WRONG_MY_AGENT_ROUND_21, WRONG_RUN_AGENT_ROUND_21
from tests.lessons.answers_round_21_later_lessons import WRONG_ROUND_21_LATER
from tests.lessons.answers_slips import WRONG_RUN_AGENT_SLIPS, WRONG_SLIPS
from tests.lessons.answers_state_and_types import WRONG_RUN_AGENT_STATE, WRONG_STATE
from tests.lessons.answers_swallowed import WRONG_RUN_AGENT_SWALLOWED, WRONG_SWALLOWED
from tests.lessons.answers_thinking import WRONG_RUN_AGENT_2
from tests.lessons.answers_tool_calls import WRONG_RUN_AGENT_CALLS, WRONG_TOOL_CALLS
from tests.lessons.answers_valves import WRONG_RUN_AGENT_VALVES
from tests.lessons.answers_whole_harness import WRONG_RUN_AGENT_ROUND_17
from tests.lessons.notebook_runner import NOTEBOOKS, todo_cells
from tests.lessons.test_capstone import at_point

SHIPPED = sorted(NOTEBOOKS.glob("0[1-6]_*.ipynb")) + sorted(NOTEBOOKS.glob("en/0[1-6]_*.ipynb"))


@pytest.mark.parametrize("piece", lessons.ALL, ids=lambda p: f"{p.name}-{p.lesson}")
def test_each_reference_passes_its_own_check(piece):
    verdict = lessons.judge(piece, piece.reference)
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("name, source", [("run_agent", RIGHT_RUN_AGENT), ("my_agent", RIGHT_MY_AGENT)])
def test_a_learners_right_lesson_6_pieces_pass(name, source):
    verdict = lessons.judge(lessons.PIECES[name], loaded(source, name))
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("name, wrong, point, key", WRONG, ids=[w[1].__name__ for w in WRONG])
def test_each_wrong_version_gets_the_hint_that_names_its_cause(name, wrong, point, key):
    verdict = lessons.judge(at_point(name, point), wrong)
    assert not verdict.passed
    miss = verdict.checks[0]
    assert not miss.passed and miss.key == key, (miss, verdict.text())


@pytest.mark.parametrize(
    "source, point, key", WRONG_RUN_AGENT, ids=[f"{w[2].rsplit('.', 1)[-1]}-{w[1]}" for w in WRONG_RUN_AGENT]
)
def test_each_wrong_whole_harness_gets_the_hint_that_names_its_cause(source, point, key):
    verdict = lessons.judge(at_point("run_agent", point, 6), loaded(source))
    assert not verdict.passed
    miss = verdict.checks[0]
    assert not miss.passed and miss.key == key, (miss, verdict.text())


def test_every_hint_key_is_provoked_by_some_wrong_version():
    more = WRONG_MORE + STALLED + WRONG_RUN_AGENT_MORE + STALLED_RUN_AGENT + WRONG_RUN_AGENT_2  # other styles, thinking
    more += WRONG_RUN_AGENT_VALVES  # every high-impact tool, valve 2 after the tools
    more += WRONG_REUSE + WRONG_RUN_AGENT_REUSE  # one list reused, results outside a user message, valve 3 carried
    more += WRONG_PROBES + WRONG_RUN_AGENT_PROBES  # results sorted or keyed by name, the cache counted twice
    more += WRONG_SLIPS + WRONG_RUN_AGENT_SLIPS  # laps not yielded, turn labels, a refusal, results reordered
    more += WRONG_STATE + WRONG_RUN_AGENT_STATE  # state kept between runs, JSON by accident, a stop sequence
    more += WRONG_MISREAD + WRONG_RUN_AGENT_MISREAD + WRONG_MY_AGENT_MISREAD  # SDK objects as dicts, a yes kept
    more += WRONG_COUNTS + WRONG_RUN_AGENT_COUNTS + WRONG_MY_AGENT_COUNTS  # a digest cut short, is_error as text
    more += WRONG_HABITS + WRONG_HABITS_GATES + WRONG_RUN_AGENT_HABITS  # other SDKs' shapes, async, valve 3 by hand
    more += WRONG_MIXUPS + WRONG_RUN_AGENT_MIXUPS  # content changed, stop_reason mix-ups, a usage field left out
    more += WRONG_RUN_AGENT_CALLS + WRONG_TOOL_CALLS  # tools given their input by position in the loop itself
    more += WRONG_ROUND_16  # Ctrl-C caught with the failures, compaction read as an ending
    more += WRONG_RUN_AGENT_ROUND_17  # Ctrl-C caught in the loop, the caller's tools changed, valve 1 after the tools
    more += WRONG_ROUND_18 + WRONG_RUN_AGENT_ROUND_18  # a counter reset, asked before a valve, an answer kept by name
    more += WRONG_ROUND_19 + WRONG_RUN_AGENT_ROUND_19  # API errors retried without end, a history copy left unsent
    more += WRONG_ROUND_20 + WRONG_RUN_AGENT_ROUND_20  # one answer for the turn, results reversed, async retries
    more += WRONG_MY_AGENT_ROUND_20  # a post held back on the second run
    more += WRONG_ROUND_21 + WRONG_ROUND_21_LATER + WRONG_RUN_AGENT_ROUND_21  # SDK examples, input(), typos
    more += WRONG_MY_AGENT_ROUND_21  # a typo inside http_post, input() for approve
    # except: pass, "false" flags, a stop yielded, a loop ended on a denial, a sliced history (every point each misses)
    more += [(name, wrong, p, key) for name, wrong, missed in WRONG_SWALLOWED for p, key in missed.items()]
    more += [(source, p, key) for source, missed in WRONG_RUN_AGENT_SWALLOWED for p, key in missed.items()]
    provoked = {key for *_, key in WRONG + WRONG_RUN_AGENT + WRONG_MY_AGENT + more}
    families = ("lesson.l", "lesson.capstone.", "lesson.rule.")
    titles = tuple(f".p{n}" for n in range(1, 10))
    written = {k for k in CATALOG if k.startswith(families) and not k.endswith(titles) and ".valve." not in k}
    # Hints reached only through the API's own 400 texts or a runaway are exercised by other tests.
    assert sorted(written - provoked - SEEN_ELSEWHERE) == []


SEEN_ELSEWHERE = {
    "lesson.l2.results_first",
    "lesson.l2.run_tools.type",
    "lesson.l2.run_tools.ids",
    "lesson.l2.run_tools.not_list",
    "lesson.l2.run_tools.not_json",
    "lesson.l2.run_tools.wrong_output",
    "lesson.l2.run_tools.stopped_early",
    "lesson.l2.run_agent.not_text",
    "lesson.l3.next_step.empty_end_turn",
    "lesson.l4.signature.unstable",
    "lesson.l5.approved_not_run",
    "lesson.l5.not_all_ran",
    "lesson.l6.read_file.not_read",
    "lesson.l6.run_agent.counts",  # the fallback when no cause below fits
}


def test_an_unwritten_todo_says_so_and_the_lesson_goes_on_with_the_reference(capsys):
    def run_tools(content, impls):
        raise NotImplementedError  # the TODO cell as shipped

    used = lessons.check("run_tools", run_tools)
    out = capsys.readouterr().out
    assert used is lessons.reference("run_tools")
    assert out.strip() == t("lesson.check.unwritten", name="run_tools", show='lessons.show("run_tools")')


def test_an_interrupted_check_says_so_in_one_line(capsys):
    """Kernel > Interrupt while the learner's piece ran under its time limit showed a traceback through
    the grading machinery (wire.py's select), in none of the course's words."""

    def run_tools(content, impls):
        time.sleep(30)

    interrupt = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    interrupt.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:  # still an interrupt: "run all" stops there
            lessons.check("run_tools", run_tools, timeout=20)
    finally:
        interrupt.cancel()
    assert getattr(caught.value, "_render_traceback_", list)() == [t("lesson.check.interrupted", name="run_tools")]
    assert capsys.readouterr().out == ""  # no verdict printed, nothing kept in the workbook


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_each_shipped_todo_run_with_its_check_goes_on_with_the_reference_and_saves_nothing(path, capsys):
    # The tests of the shipped lessons read their stored outputs (strict nbval re-runs them against those);
    # the workbook a run leaves behind is no output, so each TODO cell and its check cell run here as shipped.
    nb = nbformat.read(path, as_version=4)
    for piece, index in todo_cells(nb).items():
        namespace: dict = {"lessons": lessons}
        check = nb.cells[index + 1].source
        for source in (nb.cells[index].source, check):
            exec(compile(source, f"{path.name}: {piece}", "exec"), namespace)
        lesson = {"lesson": int(found[1])} if (found := re.search(r"lesson=(\d+)", check)) else {}
        shown = f'lessons.show("{piece}"' + "".join(f", lesson={n}" for n in lesson.values()) + ")"
        assert namespace[piece] is lessons.reference(piece, **lesson)
        assert capsys.readouterr().out.strip() == t("lesson.check.unwritten", name=piece, show=shown)
    assert not Path(os.environ["HARNESS_LAB_WORKBOOK"]).exists()


def test_a_runaway_is_cut_off_with_a_hint_not_a_hung_cell(capsys):
    def run_agent(client, user_input, tools, impls):
        while True:
            pass

    verdict = lessons.judge(lessons.piece("run_agent"), run_agent, timeout=0.5)
    assert [c.key for c in verdict.checks] == ["lesson.l2.run_agent.stalled"] * 3


def test_a_passing_piece_is_saved_and_used_by_the_next_notebook(workbook_here, tmp_path, capsys):
    namespace: dict = {}
    source = textwrap.dedent('''
        import json

        def my_signature(content):
            """mine"""
            parts = [f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)})"
                     for b in content if b.type == "tool_use"]
            return " | ".join(sorted(parts))
    ''')
    path = tmp_path / "cell.py"
    path.write_text(source, encoding="utf-8")
    exec(compile(source, str(path), "exec"), namespace)  # a function with a file, as a notebook cell has
    used = lessons.check("signature_of", namespace["my_signature"])
    assert used is namespace["my_signature"]
    text = workbook_here.read_text(encoding="utf-8")
    assert "def my_signature(content):" in text and "signature_of = my_signature" in text
    capsys.readouterr()
    again = lessons.use("signature_of")
    assert capsys.readouterr().out.strip() == t("lesson.use.mine", name="signature_of", path="my_harness.py")
    assert lessons.judge(lessons.PIECES["signature_of"], again).passed


@pytest.mark.parametrize("shape", ["lambda", "partial", "object"])
def test_a_passing_piece_that_is_no_def_is_used_but_not_saved(shape, workbook_here, capsys):
    reference = lessons.reference("next_step")

    class Step:
        def __call__(self, response):
            return reference(response)

    fn = {"lambda": lambda response: reference(response), "partial": functools.partial(reference), "object": Step()}
    used = lessons.check("next_step", fn[shape])  # passes, and says why it is not in my_harness.py
    assert used is fn[shape]
    assert t("lesson.check.not_saved", name="next_step") in capsys.readouterr().out
    assert not workbook_here.exists()


def test_a_broken_workbook_falls_back_with_one_line(workbook_here, capsys):
    workbook_here.write_text("def oops(:\n", encoding="utf-8")
    assert lessons.use("run_tools") is lessons.reference("run_tools")
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "my_harness.py の 1 行目" in out and 'lessons.show("run_tools")' in out


def test_use_without_a_workbook_says_it_uses_the_reference(capsys):
    assert lessons.use("run_tools") is lessons.reference("run_tools")
    assert "my_harness.py" in capsys.readouterr().out


def test_predictions_are_compared_one_line_each(capsys):
    assert lessons.compare({"requests": 3, "rounds": 2}, {"requests": 3, "rounds": 2}) is True
    assert lessons.compare({"requests": 2, "rounds": None}, {"requests": 3, "rounds": 2}) is False
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-2] == t("lesson.predict.wrong", what="requests", guess=2, actual=3)
    assert lines[-1] == t("lesson.predict.blank", what="rounds")


@pytest.mark.parametrize("cleared", ["", "  ", "\u3000"])
def test_a_guess_cleared_to_an_empty_string_keeps_the_answer_hidden(capsys, cleared):
    assert lessons.compare({"requests": cleared, "rounds": 2}, {"requests": 3, "rounds": 2}) is False
    out = capsys.readouterr().out
    assert t("lesson.predict.blank", what="requests") in out and "3" not in out
    assert lessons.compare({"requests": cleared}, {"requests": 3}) is False
    assert capsys.readouterr().out.strip() == t("lesson.predict.all_blank", whats="requests")


@pytest.mark.parametrize(
    "guess, actual, right",
    [
        ("400", 400, True),  # the guess cell invites "200 か 400": a quoted number is the same number
        (" 1,000 ", 1000, True),
        ("弁1", "max_turns", True),  # the notebooks' own name for the valve
        ("Valve 4", "approval", True),
        ("MAX_TURNS", "max_turns", True),
        ("弁2", "max_turns", False),
        ("3回", 3, True),  # a count written as one says it
        ("３", 3, True),  # full-width, as a Japanese keyboard types it
        ("2 ターン", 2, True),
        ("3 requests", 3, True),
        ("3回目", 3, False),
        ("30回", 3, False),
        ("401", 400, False),
        ("400", "400x", False),
        (True, 1, True),  # Python's own equality stays as it was
        ("True", 1, False),
    ],
)
def test_a_guess_matches_by_meaning_not_by_type(capsys, guess, actual, right):
    assert lessons.compare({"it": guess}, {"it": actual}) is right


def test_the_stepper_steps_a_hand_written_loop_turn_by_turn():
    from harness_lab.emulator import emulated_client
    from harness_lab.events import Finished, Turn
    from harness_lab.lessons.diagnosis import outputs
    from harness_lab.lessons.lesson6 import run_agent
    from harness_lab.lessons.scenes import scene_tools
    from harness_lab.ui import Stepper

    impls = {name: (lambda out: lambda **_: out)(out) for name, out in outputs().items()}  # noqa: B023 (bound by the outer call)
    panel = Stepper(
        lessons.HandWritten(run_agent, emulated_client("lesson6"), scene_tools(), impls),
        "README.md の1行目を読んで、それから今何時か教えて",
    )
    assert isinstance(panel.step(), Turn) and isinstance(panel.step(), Turn)
    end = panel.step()
    assert isinstance(end, Finished) and panel.done and "README.md" in end.text
    assert len(panel.tabs.children) == 1  # no timeline or context for a loop without a RunState
    assert "README.md" in repr(panel)


def test_the_workbook_runs_on_its_own_with_helpers_constants_and_missing_pieces(workbook_here, tmp_path):
    source = textwrap.dedent("""
        import json as j

        MODEL = "claude-sonnet-5"
        PREFIX = "結果: "
        SKIP = {"write_file", "http_post", "delete_file"}

        def label(text):
            return PREFIX + text

        def run_agent(client, user_input, tools, impls):
            messages = [{"role": "user", "content": user_input}]
            response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
            while response.stop_reason == "tool_use":
                messages.append({"role": "assistant", "content": response.content})
                messages.append({"role": "user", "content": run_tools(response.content, impls)})
                response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
            j.dumps({"skip": sorted(SKIP)})
            return label("".join(b.text for b in response.content if b.type == "text"))
    """)
    path = tmp_path / "cell.py"
    path.write_text(source, encoding="utf-8")
    namespace = {"__name__": "__main__"}
    exec(compile(source, str(path), "exec"), namespace)
    assert lessons.workbook().save("run_agent", 2, namespace["run_agent"], pieces=lessons.PIECES) is None
    module = lessons.workbook().load()  # run_tools never passed: the reference fills in
    from harness_lab.emulator import call, emulated_client, say
    from harness_lab.lessons.scenes import scene_tools

    answer = module.run_agent(
        emulated_client([call("get_time"), say("10時です")]), "今何時？", scene_tools(), {"get_time": lambda: "10:00"}
    )
    assert answer == "結果: 10時です"
    text = workbook_here.read_text(encoding="utf-8")
    assert "SKIP = {'delete_file', 'http_post', 'write_file'}" in text
    assert "PREFIX = '結果: '" in text and "def label(text):" in text and "import json as j" in text
    assert set(lessons.workbook().pieces()) == {"run_agent"}


def test_checking_the_reference_again_saves_nothing(workbook_here, capsys):
    used = lessons.check("signature_of", lessons.reference("signature_of"))  # the check cell run twice
    assert used is lessons.reference("signature_of") and not workbook_here.exists()
    assert capsys.readouterr().out.strip() == t(
        "lesson.check.reference_again", name="signature_of", show='lessons.show("signature_of")'
    )


def test_a_check_cell_run_twice_after_a_miss_says_the_name_holds_the_reference(capsys):
    """The first run of ``run_tools = lessons.check("run_tools", run_tools)`` on a version that missed a point
    handed the reference back into ``run_tools``; running the cell again said "run_tools is not written yet
    (it still raises NotImplementedError)", which the learner's code never did."""

    def run_tools(content, impls):
        return []  # answers no tool_use

    run_tools = lessons.check("run_tools", run_tools)
    assert run_tools is lessons.reference("run_tools") and "NotImplementedError" not in capsys.readouterr().out
    lessons.check("run_tools", run_tools)  # the same cell again
    again = capsys.readouterr().out.strip()
    assert again == t("lesson.check.reference_again", name="run_tools", show='lessons.show("run_tools")')
    assert "NotImplementedError" not in again


def test_a_hand_written_loops_gauges_count_what_it_yielded():
    from harness_lab.emulator import emulated_client
    from harness_lab.lessons.diagnosis import outputs
    from harness_lab.lessons.lesson6 import run_agent
    from harness_lab.lessons.scenes import scene_tools
    from harness_lab.ui import Stepper

    impls = {name: (lambda out: lambda **_: out)(out) for name, out in outputs().items()}  # noqa: B023 (bound by the outer call)
    panel = Stepper(
        lessons.HandWritten(run_agent, emulated_client("lesson6"), scene_tools(), impls), "README.md の1行目は？"
    )
    panel.step()
    assert panel.gauges()["turns"] == 1 and panel.gauges()["tokens"] > 0
    panel.run_all()
    assert panel.gauges()["turns"] == 2 and panel.gauges()["tokens"] == panel.outcome.usage.total
    assert t("ui.card.usage_counted", total=panel.outcome.usage.total) in repr(panel)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_what_a_reference_tells_the_model_is_in_the_notebooks_language(lang, monkeypatch, tmp_path):
    """The English notebooks run the references too (where a TODO is not written yet): a denial or a
    refusal the model reads, and the learner sees in the output, must not come out in Japanese."""
    import re
    from types import SimpleNamespace

    monkeypatch.setenv("HARNESS_LAB_LANG", lang)
    write = SimpleNamespace(type="tool_use", id="toolu_1", name="write_file", input={"path": "a.md"})
    denied = lessons.reference("run_tool_uses")([write], {"write_file": lambda **_: "ok"}, lambda *_: False)
    with pytest.raises(PermissionError) as refused:
        lessons.reference("read_file")("../outside.txt", root=str(tmp_path))
    japanese = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
    for said in (denied[0]["content"], str(refused.value)):
        assert bool(japanese.search(said)) == (lang == "ja"), said


# A loop that catches BaseException around the request as well as around the tools: under the thread
# fallback (no os.fork), the probe's stop only unwinds through the learner's code, which returned "stopped"
# and passed the point.
NEXT_REQUEST = (
    "        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
)
TOOLS_RUN = (
    "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
)
CAUGHT_EVERYWHERE = variant(
    (
        TOOLS_RUN,
        "            try:\n    " + TOOLS_RUN + "            except BaseException as err:\n"
        '                results = [{"type": "tool_result", "tool_use_id": b.id, "content": repr(err), "is_error": True}'
        ' for b in response.content if b.type == "tool_use"]\n',
    ),
    (
        NEXT_REQUEST,
        "        try:\n    " + NEXT_REQUEST + "        except BaseException as err:\n"
        '            return lessons.stopped("error", str(err), turns, tokens_used)\n',
    ),
)


def test_a_probe_s_stop_swallowed_without_fork_still_names_the_interrupt(monkeypatch):
    monkeypatch.delattr(os, "fork")
    verdict = lessons.judge(at_point("run_agent", 8, 6), loaded(CAUGHT_EVERYWHERE), timeout=5)
    assert verdict.checks[0].key == "lesson.l6.run_agent.interrupt_caught", verdict.text()
