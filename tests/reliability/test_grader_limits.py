"""Graders against hostile learner code: it fails its check within the limits, and the grader works after.

Learner code that raises, loops forever, prints megabytes, exits the process, ignores signals or
returns something that cannot travel back must each end as one failed criterion with a hint,
within the grader's time limit, with nothing flooding the cell; and grading a correct answer right
after must still pass (the process stayed usable). The same holds in a real kernel: see
test_notebook_kernel.py.

A check's memory is capped, with a hint (here). The other limits of issue 12 have files of their own:
learner objects are only touched under the time limit (test_learner_objects_under_the_limit.py), and
every process learner code starts is gone when the check ends (test_no_process_outlives_a_check.py).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import time

import pytest

from harness_lab.grading import grade_level1, grade_level2, run_limited, try_limited
from harness_lab.grading.sandbox import MEMORY_LIMIT
from harness_lab.text import t
from tests.process_ids import seen_pid
from tests.safety_net import gives_up_after

LIMIT = 1.0  # seconds per limited run
GRADE_LIMIT = 0.5  # per criterion run: the graders make a few limited runs each
SLACK = 3.0  # fork, pipe and reaping overhead on a loaded 2-core machine
# The tests check which way a run ended from its verdict and its processes, never from the clock
# (these machines are shared and noisy); a run still going at ten times its limits fails (safety_net).
NET = 10
# Code that ends by itself gets a limit it cannot reach even on a loaded machine (forking a large
# test process under CI's load took more than 0.5 s once), so its test is about the hint, not the clock.
ENDS_LIMIT = 5.0

# --- correct answers, written the way the exercises ask ----------------------------------------

POLICY = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",
}
DEFAULT_TIER = "ask"


def result(block, text, is_error=False):
    made = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    if is_error:
        made["is_error"] = True
    return made


def good_run_tool_uses(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = POLICY.get(block.name, DEFAULT_TIER)
        if tier == "deny":
            results.append(result(block, f"{block.name} はポリシーで禁止されています", True))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(result(block, "ユーザーが拒否しました", True))
        else:
            try:
                results.append(result(block, str(tool_impls[block.name](**block.input))))
            except Exception as err:
                results.append(result(block, f"ツールの実行に失敗しました: {err}", True))
    return results


ANSWERS = {"step": "before_tool", "approval": "ask_reuses", "deny": "error_result"}
MISSING = {"stop_condition": "endless_turns", "no_progress": "spinning", "approval": "unchecked_action"}
MAX_TURNS = 3


def good_run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return f"最大ターン数 {MAX_TURNS} に達したので停止します"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append(
            {
                "role": "user",
                "content": [
                    result(b, str(tool_impls[b.name](**b.input))) for b in response.content if b.type == "tool_use"
                ],
            }
        )
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


# --- hostile learner code ----------------------------------------------------------------------


def raises(*args):
    raise ValueError("学習者のバグ")


def loops(*args):
    while True:
        pass


def floods(*args):
    chunk = "出力" * 500_000  # 3 MB of UTF-8 per print
    for _ in range(20):
        print(chunk)
        sys.stderr.write(chunk)
    os.write(1, b"x" * 5_000_000)  # straight to the file descriptor, past sys.stdout
    while True:
        print(chunk)


def exits(*args):
    sys.exit("さようなら")


def hard_exits(*args):
    os._exit(7)


def ignores_signals(*args):
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        time.sleep(0.01)


def recurses(*args):
    return recurses(*args)


def interrupts(*args):
    raise KeyboardInterrupt


HOSTILE = [raises, loops, floods, exits, hard_exits, ignores_signals, recurses, interrupts]
NEVER_ENDS = {loops, floods, ignores_signals}


def limit_for(learner):
    return GRADE_LIMIT if learner in NEVER_ENDS else ENDS_LIMIT


# The hint each criterion must give (level 1's three, level 2's third). Level 1's criterion 1 tries
# the unlisted tool first, so an ordinary exception there is named as that tool's failure.
RAISED = "grade.raised"
HINTS = {
    raises: (("grade.l1.c1.unlisted_error", RAISED, RAISED), RAISED),
    loops: (("grade.l1.c1.tiers_unseen", "grade.timeout", "grade.timeout"), "grade.l2.c3.runaway"),
    floods: (("grade.l1.c1.tiers_unseen", "grade.timeout", "grade.timeout"), "grade.l2.c3.runaway"),
    exits: ((RAISED,) * 3, RAISED),
    hard_exits: (("grade.crashed",) * 3, "grade.crashed"),
    ignores_signals: (("grade.l1.c1.tiers_unseen", "grade.timeout", "grade.timeout"), "grade.l2.c3.runaway"),
    recurses: (("grade.l1.c1.unlisted_error", RAISED, RAISED), RAISED),
    interrupts: ((RAISED,) * 3, RAISED),
}


@pytest.fixture
def quiet(capfd):
    """Nothing the learner printed may reach the grader's own output."""
    yield
    out, err = capfd.readouterr()
    assert len(out) + len(err) < 10_000, f"{len(out)} + {len(err)} characters leaked into the cell"


def recording(learner, pid_file: str):
    """``learner``, noting the process each call runs in: a runaway's must be gone when its check ends."""

    @functools.wraps(learner)
    def recorded(*args):
        with open(pid_file, "a") as f:
            f.write(f"{seen_pid()}\n")
        return learner(*args)

    return recorded


def _left_running(pid_file: str) -> list[int]:
    with open(pid_file) as f:
        pids = {int(line) for line in f}
    return sorted(pid for pid in pids if not _dies_soon(pid))


@pytest.mark.parametrize("learner", HOSTILE, ids=[f.__name__ for f in HOSTILE])
def test_level1_fails_hostile_code_at_its_limit_and_still_grades_after(learner, quiet, tmp_path):
    limit, pid_file = limit_for(learner), str(tmp_path / "learner.pids")
    with gives_up_after(NET * (3 * limit + SLACK), "level 1's grade"):
        report = grade_level1(POLICY, DEFAULT_TIER, recording(learner, pid_file), ANSWERS, timeout=limit)
    assert not report.passed and report.failed() == [1, 2, 3], report.text()
    assert tuple(check.key for check in report.checks) == HINTS[learner][0], report.text()
    assert _left_running(pid_file) == []
    assert grade_level1(POLICY, DEFAULT_TIER, good_run_tool_uses, ANSWERS, timeout=5).passed


@pytest.mark.parametrize("learner", HOSTILE, ids=[f.__name__ for f in HOSTILE])
def test_level2_fails_hostile_code_at_its_limit_and_still_grades_after(learner, quiet, tmp_path):
    limit, pid_file = limit_for(learner), str(tmp_path / "learner.pids")
    with gives_up_after(NET * (limit + SLACK), "level 2's grade"):
        report = grade_level2(MISSING, recording(learner, pid_file), MAX_TURNS, timeout=limit)
    assert report.failed() == [3] and report.checks[2].key == HINTS[learner][1], report.text()
    assert _left_running(pid_file) == []
    assert grade_level2(MISSING, good_run_agent, MAX_TURNS, timeout=5).passed


def test_a_loop_with_no_cap_fails_within_the_limit():
    """The classic runaway: the bare loop. The scripted model or the clock ends it, never a hang."""

    def bare(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
        while response.stop_reason == "tool_use":
            messages.append({"role": "assistant", "content": response.content})
            messages.append(
                {
                    "role": "user",
                    "content": [
                        result(b, str(tool_impls[b.name](**b.input))) for b in response.content if b.type == "tool_use"
                    ],
                }
            )
            response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
        return "".join(b.text for b in response.content if b.type == "text")

    with gives_up_after(NET * (3 + SLACK), "level 2's grade of a bare loop"):
        report = grade_level2(MISSING, bare, MAX_TURNS, timeout=3)
    assert report.failed() == [3]


def unpicklable():
    return lambda: None


RUN_LIMITED = [
    (lambda: 42, "ok", 42),
    (lambda: raises(), "error", "ValueError: 学習者のバグ"),
    (lambda: loops(), "timeout", None),
    (lambda: floods(), "timeout", None),
    (lambda: ignores_signals(), "timeout", None),
    (lambda: exits(), "error", "SystemExit: さようなら"),
    (lambda: hard_exits(), "crashed", None),
    (lambda: recurses(), "error", "RecursionError"),
    (lambda: interrupts(), "error", "KeyboardInterrupt"),
    (unpicklable, "error", "could not send"),
]


@pytest.mark.parametrize(
    "job, status, shown",
    RUN_LIMITED,
    ids=[
        "ok",
        "raises",
        "loops",
        "floods",
        "ignores_signals",
        "exits",
        "hard_exits",
        "recurses",
        "interrupts",
        "unpicklable",
    ],
)
def test_run_limited_reports_each_way_a_job_can_end(job, status, shown, quiet):
    limit = LIMIT if status == "timeout" else ENDS_LIMIT
    with gives_up_after(NET * (limit + SLACK), "the limited run"):
        outcome = run_limited(job, timeout=limit)
    assert outcome.status == status, outcome
    if status == "ok":
        assert outcome.value == shown
    elif shown:
        assert shown in outcome.error
    assert run_limited(lambda: "still usable", timeout=5).value == "still usable"


def _dies_soon(pid: int, within: float = 10.0) -> bool:
    """Gone, or going: a kill's effect can lag its return; ``within`` is a net (the pids never end by themselves)."""
    deadline = time.monotonic() + within
    while _running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed orphan waits as a zombie until init collects it)."""
    if not os.path.isdir("/proc"):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def hoards():
    return len(bytearray(3 << 30))  # far past the allowance, at once: no time limit is reached first


def test_memory_per_check_is_capped_with_a_clear_hint(capsys):
    outcome = run_limited(hoards, timeout=10)  # "memory", not "timeout": the cap stops it first
    assert outcome.status == "memory" and outcome.value == MEMORY_LIMIT >> 20, outcome
    report = grade_level2(MISSING, lambda *args: hoards(), MAX_TURNS, timeout=10)
    assert report.checks[2].key == "grade.memory"
    assert f"{MEMORY_LIMIT >> 20} MB" in report.checks[2].hint
    try_limited(hoards, timeout=10)
    assert capsys.readouterr().out == t("grade.try.memory", mb=MEMORY_LIMIT >> 20) + "\n"
    assert run_limited(lambda: len(bytearray(100 << 20)), timeout=10).value == 100 << 20  # room to work
