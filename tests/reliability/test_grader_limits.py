"""Graders against hostile learner code: it fails its check within the time limit, and the grader works after.

Learner code that raises, loops forever, prints megabytes, exits the process, ignores signals or
returns something that cannot travel back must each end as one failed criterion with a hint,
within the grader's time limit, with nothing flooding the cell; and grading a correct answer right
after must still pass (the process stayed usable). The same holds in a real kernel: see
test_notebook_kernel.py.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from harness_lab.grading import grade_level1, grade_level2, run_limited

LIMIT = 1.0  # seconds per limited run
GRADE_LIMIT = 0.5  # per criterion run: the graders make a few limited runs each
SLACK = 3.0  # fork, pipe and reaping overhead on a loaded 2-core machine

# --- correct answers, written the way the exercises ask ----------------------------------------

POLICY = {"get_time": "allow", "read_file": "allow", "write_file": "ask", "delete_file": "ask",
          "http_post": "ask", "send_email": "deny"}
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
            results.append(result(block, str(tool_impls[block.name](block.input))))
    return results


MISSING = {"stop_condition", "token_budget", "no_progress", "approval"}
RUNAWAYS = {"endless_turns", "spinning"}
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
        messages.append({"role": "user", "content": [
            result(b, str(tool_impls[b.name](b.input))) for b in response.content if b.type == "tool_use"]})
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

# The hint each criterion must give (level 1's three, level 2's third). Level 1's criterion 1 tries
# the unlisted tool first, so an ordinary exception there is named as that tool's failure.
RAISED = "grade.raised"
HINTS = {
    raises: (("grade.l1.c1.unlisted_error", RAISED, RAISED), RAISED),
    loops: (("grade.timeout",) * 3, "grade.l2.c3.runaway"),
    floods: (("grade.timeout",) * 3, "grade.l2.c3.runaway"),
    exits: ((RAISED,) * 3, RAISED),
    hard_exits: (("grade.crashed",) * 3, "grade.crashed"),
    ignores_signals: (("grade.timeout",) * 3, "grade.l2.c3.runaway"),
    recurses: (("grade.l1.c1.unlisted_error", RAISED, RAISED), RAISED),
    interrupts: ((RAISED,) * 3, RAISED),
}


@pytest.fixture
def quiet(capfd):
    """Nothing the learner printed may reach the grader's own output."""
    yield
    out, err = capfd.readouterr()
    assert len(out) + len(err) < 10_000, f"{len(out)} + {len(err)} characters leaked into the cell"


@pytest.mark.parametrize("learner", HOSTILE, ids=[f.__name__ for f in HOSTILE])
def test_level1_fails_hostile_code_in_time_and_still_grades_after(learner, quiet):
    started = time.monotonic()
    report = grade_level1(POLICY, DEFAULT_TIER, learner, timeout=GRADE_LIMIT)
    elapsed = time.monotonic() - started
    assert not report.passed and report.failed() == [1, 2, 3], report.text()
    assert tuple(check.key for check in report.checks) == HINTS[learner][0], report.text()
    assert elapsed < 3 * GRADE_LIMIT + SLACK, elapsed
    assert grade_level1(POLICY, DEFAULT_TIER, good_run_tool_uses, timeout=5).passed


@pytest.mark.parametrize("learner", HOSTILE, ids=[f.__name__ for f in HOSTILE])
def test_level2_fails_hostile_code_in_time_and_still_grades_after(learner, quiet):
    started = time.monotonic()
    report = grade_level2(MISSING, RUNAWAYS, learner, MAX_TURNS, timeout=GRADE_LIMIT)
    elapsed = time.monotonic() - started
    assert report.failed() == [3] and report.checks[2].key == HINTS[learner][1], report.text()
    assert elapsed < GRADE_LIMIT + SLACK, elapsed  # the first scenario fails, so one limited run
    assert grade_level2(MISSING, RUNAWAYS, good_run_agent, MAX_TURNS, timeout=5).passed


def test_a_loop_with_no_cap_fails_within_the_limit():
    """The classic runaway: the bare loop. The scripted model or the clock ends it, never a hang."""

    def bare(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
        while response.stop_reason == "tool_use":
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": [
                result(b, str(tool_impls[b.name](b.input))) for b in response.content if b.type == "tool_use"]})
            response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools,
                                              messages=messages)
        return "".join(b.text for b in response.content if b.type == "text")

    started = time.monotonic()
    report = grade_level2(MISSING, RUNAWAYS, bare, MAX_TURNS, timeout=3)
    assert report.failed() == [3] and time.monotonic() - started < 3 + SLACK


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


@pytest.mark.parametrize("job, status, shown", RUN_LIMITED,
                         ids=["ok", "raises", "loops", "floods", "ignores_signals", "exits", "hard_exits",
                              "recurses", "interrupts", "unpicklable"])
def test_run_limited_reports_each_way_a_job_can_end(job, status, shown, quiet):
    started = time.monotonic()
    outcome = run_limited(job, timeout=LIMIT)
    assert time.monotonic() - started < LIMIT + SLACK
    assert outcome.status == status, outcome
    if status == "ok":
        assert outcome.value == shown
    elif shown:
        assert shown in outcome.error
    assert run_limited(lambda: "still usable", timeout=5).value == "still usable"


def forks_a_spinning_child(pid_file: str, then_spin: bool):
    """Learner code that forks: the grandchild spins forever and holds the pipe open."""

    def job():
        grandchild = os.fork()
        if grandchild == 0:
            while True:
                pass
        with open(pid_file, "w") as f:
            f.write(str(grandchild))
        while then_spin:
            pass
        return "answered"

    return job


@pytest.mark.parametrize("then_spin", [False, True], ids=["child answers", "child spins too"])
def test_a_forking_job_leaves_no_grandchild_and_answers_at_once(tmp_path, then_spin):
    pid_file = str(tmp_path / "grandchild.pid")
    limit = 2 * SLACK  # long enough that waiting for it shows
    started = time.monotonic()
    try:
        outcome = run_limited(forks_a_spinning_child(pid_file, then_spin), timeout=limit)
        elapsed = time.monotonic() - started
        with open(pid_file) as f:
            grandchild = int(f.read())
        if then_spin:
            assert outcome.status == "timeout" and elapsed < limit + SLACK
        else:
            assert (outcome.status, outcome.value) == ("ok", "answered")
            assert elapsed < SLACK, elapsed  # did not wait for the grandchild to close the pipe
        assert _dies_soon(grandchild), "the forked grandchild is still running"
    finally:
        _kill_if_running(pid_file)


def _dies_soon(pid: int, within: float = 2.0) -> bool:
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


def _kill_if_running(pid_file: str) -> None:
    try:
        with open(pid_file) as f:
            pid = int(f.read())
    except (OSError, ValueError):
        return
    if _running(pid):
        os.kill(pid, signal.SIGKILL)


def test_no_child_process_is_left_behind():
    before = _children()
    for job in (loops, ignores_signals, hard_exits, floods):
        run_limited(job, timeout=0.5)
    assert _children() <= before


def _children() -> set[int]:
    """Live (not zombie) child processes of this process, from /proc."""
    me, found = os.getpid(), set()
    if not os.path.isdir("/proc"):
        return found
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me:
                found.add(int(entry))
    return found
