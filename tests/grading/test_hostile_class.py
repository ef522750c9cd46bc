"""A class with a hostile learner in it, graded by the real commands (issues 24, 26 and 29).

Each test hands in notebooks whose answer cells attack (``attacks.py``) and grades the class as an
instructor would, in the sandbox (the default) and, where it says so, with ``--unsandboxed`` as root
(learner code then runs as an unprivileged user of its own). The attacker gets what its own code
earns and nothing else: no trace outside its copy, no connection, no secret or classmate's answer in
the report, and every classmate's grade as it would be without it.
"""

from __future__ import annotations

import csv
import json
import os
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from attacks import leaking, snooping
from class_submissions import Handed, answer_cells, needs_sandbox, right, wrong

from harness_lab.grading.memory_cgroup import Cgroup
from harness_lab.grading.syscall_filter import number
from harness_lab.text import t
from tests.grading import no_user_namespaces
from tests.process_ids import landlock_abi, landlock_scopes_jobs

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = "8"
pytestmark = needs_sandbox


def command(
    *args: str | Path, env: dict | None = None, timeout: float = 300, prelude: str = ""
) -> subprocess.CompletedProcess:
    """``harness-lab`` with ``args``; ``prelude`` (``no_user_namespaces``) first changes the machine it sees."""
    start = (
        ["-c", prelude + "import runpy\nrunpy.run_module('harness_lab.cli', run_name='__main__')"] if prelude else []
    )
    return subprocess.run(
        [sys.executable, *(start or ["-m", "harness_lab.cli"]), *map(str, args)],
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


@pytest.mark.parametrize(
    "unsandboxed, prelude",
    [
        pytest.param(False, "", id="sandboxed"),
        pytest.param(True, "", id="unsandboxed"),
        pytest.param(
            True,
            no_user_namespaces.without_landlock("ENOSYS"),
            id="unsandboxed without Landlock as a control",
            marks=no_user_namespaces.NEEDED,
        ),
    ],
)
def test_a_snooping_learner_leaves_no_trace_and_changes_no_grade(unsandboxed, prelude):
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
            done = command("grade-class", subs, "--out", report, "--timeout", "60", *extra, env=env, prelude=prelude)
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
        if unsandboxed and (prelude or landlock_abi() < 1):  # the attack is real: as an unprivileged user it
            assert left, "the control run should show what the attack does without the sandbox"  # reaches them
            assert not connected  # the job's seccomp filter refuses its sockets, Landlock or not (host._keep_to)
            return
        # unsandboxed, Landlock keeps the answer cells' files to their own folder, and the seccomp filter their
        # sockets, where it knows the machine (host._keep_to)
        assert connected == (unsandboxed and landlock_abi() < 4 and number("socket") is None)
        assert left == [] and not forged, (left, forged)
        assert_classmates_graded_as_alone(report, plan)
        assert verdict(rows(report)["mal", "level2"])[-2:] == ("3", "ok")  # a right answer, despite it all
        assert f"sk-ant-{marker}" not in "".join(p.read_text(errors="replace") for p in report.rglob("*.*"))
    finally:
        for path in traces(marker, []):
            path.unlink(missing_ok=True)
        subprocess.run(["rm", "-rf", str(base)], check=False)


@pytest.mark.parametrize(
    "unsandboxed",
    [
        pytest.param(False, id="sandboxed"),
        pytest.param(True, id="unsandboxed without Landlock", marks=no_user_namespaces.NEEDED),
    ],
)
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
        # unsandboxed: where the kernel has Landlock, the answer cell reads neither (host._keep_to); without it,
        # it reads both, and the report must cut them out
        extra = ["--unsandboxed"] if unsandboxed else []
        prelude = no_user_namespaces.without_landlock("ENOSYS") if unsandboxed else ""
        done = command("grade-class", subs, "--out", report, *extra, env=env, prelude=prelude)
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


@pytest.fixture(scope="module")
def attacked_class(tmp_path_factory) -> tuple[Path, dict[str, Handed], str]:
    """One sandboxed class, graded once by the default command, with each attack below handed in by a
    learner of its own beside three honest classmates; (report, classmates, the guessed key's text).

    Each attack was a class of its own, and starting the command, its hosts and their sandbox probe
    cost more than grading the notebooks: graded together, each test still reads its own attacker's
    row, and every attacker is now also a classmate the others must leave as it would be alone.
    """
    import harness_lab.grading  # noqa: F401 (its texts join the catalog)
    from harness_lab.text import CATALOG

    base = tmp_path_factory.mktemp("attacked")
    subs, report = base / "subs", base / "report"
    plan = classmates(subs)
    with_code(right("level1"), OWN_NAMESPACE).write(subs, "ns")
    with_code(right("level1"), UNCOUNTED_QUEUES).write(subs, "net")
    key = f"sk-ant-api03-{uuid.uuid4().hex}"
    pasted = "".join(f"# {ja}\n# {en}\n" for name, (ja, en) in CATALOG.items() if name.startswith("grade."))
    guess = f"a=<{key}> b=<{key[:-1]}>"  # built when it runs: the notebook holds it reversed
    code = pasted + f"raise RuntimeError(''.join(reversed({guess[::-1]!r})))\n"
    with_code(right("level1"), code).write(subs, "paste")
    level2 = right("level2")
    level2.write(subs, "both")
    level2.write(subs, "both", "level1_tiered_policy.ipynb")  # level 2's answers under level 1's name
    right("level1").write(subs, "esc", "level1_tiered_policy\x1b]0;pwned\x07\x1b[2J\u202e.ipynb")
    env = {**os.environ, "ANTHROPIC_API_KEY": key}
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return report, plan, guess


OWN_NAMESPACE = """
import ctypes as _ctypes
_libc = _ctypes.CDLL(None, use_errno=True)
_made = _libc.unshare(0x10000000 | 0x00020000) == 0  # CLONE_NEWUSER | CLONE_NEWNS
_mounted = _made and _libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, b"size=64g") == 0
raise RuntimeError(f"own namespace: {_made}, own tmpfs: {_mounted}")
"""


def test_learner_code_cannot_make_a_user_namespace_to_mount_memory_no_limit_counts(attacked_class):
    report, plan, _ = attacked_class
    assert "RuntimeError: own namespace: False, own tmpfs: False" in rows(report)["ns", "level1"]["message"]
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


def test_learner_code_cannot_open_sockets_whose_queues_no_memory_limit_counts(attacked_class):
    report, _, _ = attacked_class
    assert "RuntimeError: netlink: refused 97" in rows(report)["net", "level1"]["message"]  # EAFNOSUPPORT


def test_in_the_sandbox_no_cut_answers_a_guess_and_no_pasted_text_blanks_a_classmates_hint(attacked_class):
    """Cutting secrets out of a sandboxed grade could only tell a learner which guess matched one (the
    sandbox kept the real ones out of reach), and would let grader text pasted into one notebook cut
    every classmate's hint."""
    report, plan, guess = attacked_class
    shown = rows(report)["paste", "level1"]["message"]
    assert f"RuntimeError: {guess}" in shown and "[REDACTED]" not in shown, shown
    assert_classmates_graded_as_alone(report, plan)
    ben = (report / "feedback" / "ben.txt").read_text(encoding="utf-8")
    assert "ヒント" in ben and "[REDACTED]" not in ben, ben


def test_one_exercise_handed_in_under_both_names_counts_once_and_names_keep_no_escapes(attacked_class):
    report, _, _ = attacked_class
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        table = list(csv.DictReader(f))
    both = [(r["exercise"], r["status"], r["hint_keys"]) for r in table if r["learner"] == "both"]
    assert sorted(both) == [("level1", "error", "grade.class.other_exercise"), ("level2", "ok", "")], both
    written = [report / "grades.csv", *(report / "feedback").glob("*.txt")]
    for path in written:
        text = path.read_text(encoding="utf-8-sig")
        assert not any(c in text for c in "\x1b\x07\u202e"), path
    assert "level1_tiered_policy\\x1b]0;pwned" in (report / "grades.csv").read_text(encoding="utf-8-sig")


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


@pytest.mark.parametrize("kernel", ["as it is", "without Landlock"])
def test_a_learner_that_makes_the_grader_the_kernels_victim_gets_its_own_memory_row(tmp_path, kernel):
    """The kernel ends the notebook's judge (PID 1 of its namespace, so the namespace with it) or the
    host for want of memory while it grades this notebook: that is the notebook's verdict, kept in the
    record, never the grader's failure graded again on every run. Where Landlock scopes the cells'
    signals the attack cannot stop its supervisors, so the command is run on a kernel without it too."""
    probe = Cgroup.make(f"harness-lab-test-{os.getpid()}", 1 << 30)
    if probe is None:
        pytest.skip("no memory cgroup can be made here (root and a writable memory controller)")
    probe.remove()
    if kernel == "without Landlock" and not no_user_namespaces.KNOWN:
        pytest.skip("a machine the test's seccomp filter does not know")
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level1"), HOST_AS_VICTIM).write(subs, "mal")
    args = ("grade-class", subs, "--out", report, "--timeout", "60", "--jobs", "2")
    refused = no_user_namespaces.without_landlock("ENOSYS") if kernel == "without Landlock" else ""
    done = command(*args, prelude=refused)
    assert done.returncode == 0, done.stdout + done.stderr
    row = rows(report)["mal", "level1"]
    if kernel == "as it is" and landlock_scopes_jobs():  # the first SIGSTOP, to a process outside, raises
        assert (row["status"], row["hint_keys"]) == ("error", "grade.nb.cell_raised"), row
        assert "PermissionError" in row["message"], row
    else:
        assert (row["status"], row["hint_keys"]) == ("error", "grade.nb.memory"), row
    assert_classmates_graded_as_alone(report, plan)


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
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT, "--jobs", "2", timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    assert rows(report)["mal", "level2"]["status"] == "timeout"
    graded = json.loads((report / "state.json").read_text(encoding="utf-8"))["entries"]
    assert sorted(entry for entry in graded if entry.startswith("mal/")) == ["mal/level2_missing_gate.ipynb"]
    feedback = (report / "feedback" / "mal.txt").read_text(encoding="utf-8")
    for name in copies:
        assert t("grade.class.duplicate", name=name, exercise="level2", kept="level2_missing_gate.ipynb") in feedback
