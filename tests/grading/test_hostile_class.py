"""A class with a hostile learner in it, graded by the real commands (issues 24, 26 and 29).

Each test hands in notebooks whose answer cells attack (``attacks.py``) and grades the class as an
instructor would, in the sandbox (the default) and, where it says so, with ``--unsandboxed`` as root
(learner code then runs as an unprivileged user of its own). The attacker gets what its own code
earns and nothing else: no trace outside its copy, no connection, no secret or classmate's answer in
the report, and every classmate's grade as it would be without it.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from attacks import KILL_THE_GRADERS, STOP_EVERYTHING, leaking, snooping
from class_submissions import Handed, answer_cells, needs_sandbox, right, wrong
from test_classroom import gone, named, named_hang

from harness_lab.grading.isolation import LEARNER_UID, UIDS_PER_RUN
from harness_lab.grading.memory_cgroup import Cgroup
from harness_lab.text import t
from tests.process_ids import namespaces_for_a_user

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = "8"
pytestmark = needs_sandbox


def command(*args: str | Path, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness_lab.cli", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def rows(report: Path) -> dict[tuple[str, str], dict]:
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        return {(r["learner"], r["exercise"]): r for r in csv.DictReader(f)}


def verdict(row: dict) -> tuple:
    return tuple(row[k] for k in ("criterion_1", "criterion_2", "criterion_3", "hint_keys", "score", "status"))


def with_code(handed: Handed, code: str) -> Handed:
    answer_cells(handed.notebook)[0].source += "\n" + code
    return handed


def classmates(subs: Path) -> dict[str, Handed]:
    plan = {"ann": right("level1"), "ben": wrong("level1", "deny result that does not say why"), "cho": right("level2")}
    for learner, handed in plan.items():
        handed.write(subs, learner)
    return plan


def assert_classmates_graded_as_alone(report: Path, plan: dict[str, Handed]) -> None:
    got = rows(report)
    for learner, handed in plan.items():
        row = got[learner, handed.exercise]
        assert (row["status"], row["hint_keys"]) == (handed.status, handed.hint_keys()), (learner, row)


def traces(marker: str, places: list[Path]) -> list[Path]:
    """Files named after ``marker`` at the top of the system's temporary folders, or anywhere in ``places``."""
    found = [p for folder in ("/tmp", "/var/tmp", "/dev/shm") for p in Path(folder).glob(f"{marker}*")]
    return found + [p for place in places if place.is_dir() for p in place.rglob(f"{marker}*")]


def public_folder() -> Path:
    """A folder under /tmp that any user can read: what an unprivileged learner uid could reach unsandboxed."""
    folder = Path(tempfile.mkdtemp(prefix="hl-hostile-"))
    folder.chmod(0o755)
    return folder


def opened(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.mark.parametrize("unsandboxed", [False, True], ids=["sandboxed", "unsandboxed as a control"])
def test_a_snooping_learner_leaves_no_trace_and_changes_no_grade(unsandboxed):
    base = public_folder()
    try:
        subs, report, home, scratch = base / "subs", base / "report", base / "home", base / "tmp"
        for folder in (home, scratch):
            folder.mkdir()
        (home / "notes.txt").write_text("講師のメモ", encoding="utf-8")
        plan = classmates(subs)
        marker = f"hl-snoop-{uuid.uuid4().hex[:8]}"
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(5)
            code = snooping(marker, listener.getsockname()[1], [subs, report, home, scratch])
            with_code(right("level2"), code).write(subs, "mal")
            opened(subs)
            env = {**os.environ, "HOME": str(home), "TMPDIR": str(scratch), "ANTHROPIC_API_KEY": f"sk-ant-{marker}"}
            extra = ["--unsandboxed"] if unsandboxed else []
            # a roomy limit: the control run must reach its connect even on a loaded machine (imports
            # alone took over 8 s at load 15), and an honest class ends long before it
            done = command("grade-class", subs, "--out", report, "--timeout", "60", *extra, env=env)
            assert done.returncode == 0, done.stdout + done.stderr
            listener.setblocking(False)
            try:
                listener.accept()[0].close()
                connected = True
            except BlockingIOError:
                connected = False
        left = traces(marker, [subs, report, home, scratch])
        # (the page quotes the attacker's answer cells, the attack's text included: only an append counts)
        forged = [p for p in report.rglob("*") if p.is_file() and p.read_text(errors="replace").endswith(marker)]
        if unsandboxed:  # the attack is real: as an unprivileged user it still reaches the shared folders
            assert connected and left, "the control run should show what the attack does without the sandbox"
            return
        assert not connected and left == [] and not forged, (connected, left, forged)
        assert_classmates_graded_as_alone(report, plan)
        assert verdict(rows(report)["mal", "level2"])[-2:] == ("3", "ok")  # a right answer, despite it all
        assert f"sk-ant-{marker}" not in "".join(p.read_text(errors="replace") for p in report.rglob("*.*"))
    finally:
        for path in traces(marker, []):
            path.unlink(missing_ok=True)
        subprocess.run(["rm", "-rf", str(base)], check=False)


AS_ROOT = pytest.mark.parametrize(
    "unsandboxed", [False, True], ids=["sandboxed", "unsandboxed as root: a user of its own per worker"]
)


def unsandboxed_only_as_root(unsandboxed: bool) -> list[str]:
    if unsandboxed and os.geteuid() != 0:  # learner code would run as the one running the tests
        pytest.skip("unsandboxed, learner code runs as the caller, and could stop or kill the caller's processes")
    return ["--unsandboxed"] if unsandboxed else []


@AS_ROOT
def test_stopping_every_process_in_sight_does_not_hang_the_batch(tmp_path, unsandboxed):
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level2"), STOP_EVERYTHING).write(subs, "mal")
    extra = unsandboxed_only_as_root(unsandboxed)
    args = ["grade-class", subs, "--out", report, "--timeout", TIMEOUT, "--jobs", "2", *extra]
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness_lab.cli", *map(str, args)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=150)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert_classmates_graded_as_alone(report, plan)
    # sandboxed, it stopped only its own notebook's processes: its own timeout; unsandboxed too where its
    # user gets a PID namespace. Without one it stopped its grading host too, which the pool replaced: the
    # grader's failure, graded again next run.
    own = "grade.class.worker_died" if unsandboxed and not namespaces_for_a_user(LEARNER_UID) else "grade.nb.timeout"
    assert rows(report)["mal", "level2"]["hint_keys"] == own
    first = LEARNER_UID + proc.pid * UIDS_PER_RUN  # the command's own block of uids
    assert left_behind(range(first, first + 2)) == []  # nothing left behind, stopped or not


def left_behind(uids: range, grace: float = 10.0) -> list[int]:
    """Processes of ``uids`` still there ``grace`` seconds after the command: a SIGKILL is delivered
    and the dead are reaped asynchronously, so a tree killed as the command ends may take a moment."""
    deadline = time.monotonic() + grace
    while (found := owned_by(uids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return found


def owned_by(uids: range) -> list[int]:
    """Processes whose real uid is in ``uids``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/status") as f:
                uid = next(int(line.split()[1]) for line in f if line.startswith("Uid:"))
        except (OSError, ValueError, StopIteration):
            continue
        if uid in uids:
            found.append(int(entry))
    return found


@AS_ROOT
def test_killing_every_grading_process_in_sight_hurts_only_the_killer(tmp_path, unsandboxed):
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level1"), KILL_THE_GRADERS).write(subs, "mal")
    extra = unsandboxed_only_as_root(unsandboxed)
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT, "--jobs", "2", *extra, timeout=150)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    # unsandboxed in a PID namespace of its own it names no other process: its right answer graded as one
    own = (
        "grade.nb.crashed"
        if not unsandboxed
        else ""
        if namespaces_for_a_user(LEARNER_UID)
        else "grade.class.worker_died"
    )
    assert rows(report)["mal", "level1"]["hint_keys"] == own


# Slow until a moment on the clock, as a right answer is while a classmate's processes fill every core.
SLOW_UNTIL = """
import time as _time
_right_run_agent = run_agent


def run_agent(client, user_input, tools, tool_impls):
    if _time.time() < {deadline}:
        _time.sleep(6)  # longer than a check's limit
    return _right_run_agent(client, user_input, tools, tool_impls)
"""


def test_a_check_that_ran_out_of_time_beside_others_is_graded_again_alone(tmp_path):
    """A time limit that ran out while other notebooks were graded beside it may be theirs (a learner's
    answer can fill every core: 240 spinning processes, each in a session of its own, failed a classmate's
    right answer in two runs of three). Such a notebook is graded again, alone, and that grade stands.
    Here the right answer is slow until a moment that its first grading comes before and its second after."""
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = {"ben": right("level2"), "cho": right("level1")}
    deadline = time.time() + 7  # the first check starts within seconds; the second after a 5 s timeout
    plan["ann"] = right("level2")
    answer_cells(plan["ann"].notebook)[-1].source += SLOW_UNTIL.format(deadline=deadline)  # after its run_agent
    for learner, handed in plan.items():
        handed.write(subs, learner)
    done = command("grade-class", subs, "--out", report, "--timeout", "60", "--jobs", "2", timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)


@pytest.mark.parametrize("unsandboxed", [False, True], ids=["sandboxed", "unsandboxed"])
def test_an_exception_carrying_the_key_or_a_classmates_answer_reaches_the_report_cut_and_redacted(unsandboxed):
    base = public_folder()
    try:
        key = f"sk-ant-api03-{uuid.uuid4().hex}"
        secret_file = base / "instructor.env"  # readable by anyone: a careless .env
        secret_file.write_text(f"ANTHROPIC_API_KEY={key}\n", encoding="utf-8")
        secret_file.chmod(0o644)
        subs, report = base / "subs", base / "report"
        mark = f"bob-approach-{uuid.uuid4().hex[:10]}"
        bob = with_code(right("level1"), f"# {mark}: the tier table, read twice\n")
        bob_path = bob.write(subs, "bob")
        with_code(right("level1"), leaking(secret_file, bob_path)).write(subs, "mal")
        opened(subs)
        env = {**os.environ, "ANTHROPIC_API_KEY": key}
        extra = ["--unsandboxed"] if unsandboxed else []
        done = command("grade-class", subs, "--out", report, *extra, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        written = "".join(
            p.read_text(encoding="utf-8-sig") for p in report.rglob("*") if p.suffix in (".csv", ".txt", ".html")
        )
        for secret in (key, key[:20], mark):
            assert secret not in written, written[max(0, written.find(secret) - 300) : written.find(secret) + 50]
        assert "SECOND LINE" not in written  # an exception reaches the report as its type and first line
        message = rows(report)["mal", "level1"]["message"]
        assert "RuntimeError: KEY=" in message
        if unsandboxed:  # it found both (readable by its user), and both were cut out
            assert message.count("[REDACTED]") >= 2, message
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False)


OWN_NAMESPACE = """
import ctypes as _ctypes
_libc = _ctypes.CDLL(None, use_errno=True)
_made = _libc.unshare(0x10000000 | 0x00020000) == 0  # CLONE_NEWUSER | CLONE_NEWNS
_mounted = _made and _libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, b"size=64g") == 0
raise RuntimeError(f"own namespace: {_made}, own tmpfs: {_mounted}")
"""


def test_learner_code_cannot_make_a_user_namespace_to_mount_memory_no_limit_counts(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level1"), OWN_NAMESPACE).write(subs, "mal")
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "RuntimeError: own namespace: False, own tmpfs: False" in rows(report)["mal", "level1"]["message"]
    assert_classmates_graded_as_alone(report, plan)


UNCOUNTED_QUEUES = """
import socket as _socket
_socket.socketpair()  # Unix sockets still work (asyncio makes a pair)
try:
    _socket.socket(_socket.AF_NETLINK, _socket.SOCK_RAW, 2)  # NETLINK_USERSOCK: queues no memory cgroup counts
    _opened = "opened"
except OSError as _error:
    _opened = f"refused {_error.errno}"
raise RuntimeError(f"netlink: {_opened}")
"""


def test_learner_code_cannot_open_sockets_whose_queues_no_memory_limit_counts(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    with_code(right("level1"), UNCOUNTED_QUEUES).write(subs, "mal")
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "RuntimeError: netlink: refused 97" in rows(report)["mal", "level1"]["message"]  # EAFNOSUPPORT


# Make the grader, not itself, the kernel's victim: stop the supervisors above it (those it can see:
# the host is outside the notebook's PID namespace), take back the request to be ended first, shrink
# by exec, and fill the host's cgroup with memory no process maps.
HOLD = """
import os, ctypes, signal, time
signal.setitimer(signal.ITIMER_REAL, 0)
ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)
block, fds = b"x" * (16 << 20), []
for _ in range(90):
    fd = os.memfd_create("hold", 0)
    for _ in range(4):
        os.write(fd, block)
    fds.append(fd)
time.sleep(60)
"""
HOST_AS_VICTIM = f"""
import ctypes as _ctypes, os as _os, signal as _signal, sys as _sys
def _parent(pid):
    with open(f"/proc/{{pid}}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])
_pid = _parent(_os.getpid())
while _pid > 1:
    _os.kill(_pid, _signal.SIGSTOP)
    _pid = _parent(_pid)
_ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)
open("/proc/self/oom_score_adj", "w").write("0")
_os.execv(_sys.executable, [_sys.executable, "-I", "-c", {HOLD!r}])
"""


def test_a_learner_that_makes_the_grader_the_kernels_victim_gets_its_own_memory_row(tmp_path):
    """The kernel ends the notebook's judge (PID 1 of its namespace, so the namespace with it) or the
    host for want of memory while it grades this notebook: that is the notebook's verdict, kept in the
    record, never the grader's failure graded again on every run."""
    probe = Cgroup.make(f"harness-lab-test-{os.getpid()}", 1 << 30)
    if probe is None:
        pytest.skip("no memory cgroup can be made here (root and a writable memory controller)")
    probe.remove()
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level1"), HOST_AS_VICTIM).write(subs, "mal")
    done = command("grade-class", subs, "--out", report, "--timeout", "60", "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    row = rows(report)["mal", "level1"]
    assert (row["status"], row["hint_keys"]) == ("error", "grade.nb.memory"), row
    assert_classmates_graded_as_alone(report, plan)


def test_in_the_sandbox_no_cut_answers_a_guess_and_no_pasted_text_blanks_a_classmates_hint(tmp_path):
    """Cutting secrets out of a sandboxed grade could only tell a learner which guess matched one (the
    sandbox kept the real ones out of reach), and would let grader text pasted into one notebook cut
    every classmate's hint."""
    import harness_lab.grading  # noqa: F401 (its texts join the catalog)
    from harness_lab.text import CATALOG

    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    key = f"sk-ant-api03-{uuid.uuid4().hex}"
    pasted = "".join(f"# {ja}\n# {en}\n" for name, (ja, en) in CATALOG.items() if name.startswith("grade."))
    guess = f"a=<{key}> b=<{key[:-1]}>"  # built when it runs: the notebook holds it reversed
    code = pasted + f"raise RuntimeError(''.join(reversed({guess[::-1]!r})))\n"
    with_code(right("level1"), code).write(subs, "mal")
    env = {**os.environ, "ANTHROPIC_API_KEY": key}
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = rows(report)["mal", "level1"]["message"]
    assert f"RuntimeError: {guess}" in shown and "[REDACTED]" not in shown, shown
    assert_classmates_graded_as_alone(report, plan)
    ben = (report / "feedback" / "ben.txt").read_text(encoding="utf-8")
    assert "ヒント" in ben and "[REDACTED]" not in ben, ben


def test_one_exercise_handed_in_under_both_names_counts_once_and_names_keep_no_escapes(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    level2 = right("level2")
    level2.write(subs, "mal")
    level2.write(subs, "mal", "level1_tiered_policy.ipynb")  # level 2's answers under level 1's name
    right("level1").write(subs, "esc", "level1_tiered_policy\x1b]0;pwned\x07\x1b[2J\u202e.ipynb")
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        table = list(csv.DictReader(f))
    mal = [(r["exercise"], r["status"], r["hint_keys"]) for r in table if r["learner"] == "mal"]
    assert sorted(mal) == [("level1", "error", "grade.class.other_exercise"), ("level2", "ok", "")], mal
    written = [report / "grades.csv", *(report / "feedback").glob("*.txt")]
    for path in written:
        text = path.read_text(encoding="utf-8-sig")
        assert not any(c in text for c in "\x1b\x07\u202e"), path
    assert "level1_tiered_policy\\x1b]0;pwned" in (report / "grades.csv").read_text(encoding="utf-8-sig")


def test_a_host_that_dies_is_the_graders_failure_and_is_graded_again(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "ann")
    hang = f"hl-infra-{os.getpid()}"[:15]
    named_hang(hang).write(subs, "zed")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness_lab.cli",
            "grade-class",
            subs,
            "--out",
            report,
            "--timeout",
            "60",
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in ("graded", "graded again at the end, alone"):  # the machine, not the learner, takes both hosts away
            deadline = time.monotonic() + 120
            while not named(hang):
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
            for pid in hosts_of(proc.pid):
                with contextlib.suppress(ProcessLookupError):  # a host that ended on its own meanwhile
                    os.kill(pid, signal.SIGKILL)
            while named(hang):
                assert time.monotonic() < deadline
                time.sleep(0.1)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert gone(hang)
    row = rows(report)["zed", "level2"]
    assert row["message"] == t("grade.class.worker_died") and row["hint_keys"] == "grade.class.worker_died"
    assert "答え" in row["message"]  # it says the answer is not at fault
    done = command("grade-class", subs, "--out", report, "--timeout", "2")
    assert done.returncode == 0
    assert t("grade.class.done", total=2, seconds="@", graded=1, reused=1).split("@")[1] in done.stdout
    assert rows(report)["zed", "level2"]["status"] == "timeout"


def hosts_of(root: int) -> list[int]:
    """Grading hosts below process ``root``."""
    found, todo = [], [root]
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if b"harness_lab.grading.host" in f.read():
                        found.append(pid)
            except OSError:
                pass
    return found


def test_a_host_its_last_notebook_broke_costs_the_next_classmate_no_grade(tmp_path):
    """Unsandboxed, learner code is its grading host's own user: an answer that locked the host's folder
    (chmod 500) made the host fail the next notebook, an honest classmate's, whose row said "not graded"
    (grade.class.worker_died). A grader's failure is now graded again at the end, alone, on a fresh host."""
    subs, report = tmp_path / "subs", tmp_path / "report"
    lock = "import os\ntry:\n    os.chmod(os.path.dirname(os.path.dirname(os.environ['HOME'])), 0o500)\nexcept OSError:\n    pass\n"
    with_code(right("level2"), lock).write(subs, "aaa")  # graded first on the one host
    plan = classmates(subs)
    done = command("grade-class", subs, "--out", report, "--timeout", "30", "--jobs", "1", "--unsandboxed", timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    assert verdict(rows(report)["aaa", "level2"])[-2:] == ("3", "ok")


def test_copies_of_one_exercise_are_listed_not_graded(tmp_path):
    """A learner who hands in one exercise many times (an LMS keeps every upload: ``(1)``, ``(2)``...)
    had every copy graded, though the report keeps one: fifty hanging copies cost the class the time
    limit a hundred times (each beside the others, then alone). Only the copy the report keeps is graded."""
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    hanging = right("level2")
    answer_cells(hanging.notebook)[0].source += "\nimport time\nwhile True:\n    time.sleep(0.05)\n"
    copies = ["level2_missing_gate (1).ipynb", "level2_missing_gate (2).ipynb", "uploaded.ipynb"]
    for name in ["level2_missing_gate.ipynb", *copies]:
        hanging.write(subs, "mal", name)
    done = command("grade-class", subs, "--out", report, "--timeout", "4", "--jobs", "2", timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    assert rows(report)["mal", "level2"]["status"] == "timeout"
    graded = json.loads((report / "state.json").read_text(encoding="utf-8"))["entries"]
    assert sorted(entry for entry in graded if entry.startswith("mal/")) == ["mal/level2_missing_gate.ipynb"]
    feedback = (report / "feedback" / "mal.txt").read_text(encoding="utf-8")
    for name in copies:
        assert t("grade.class.duplicate", name=name, exercise="level2", kept="level2_missing_gate.ipynb") in feedback
