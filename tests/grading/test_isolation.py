"""The sandbox around learner code, and what happens without one (issue 24, items 1 and 2).

``harness-lab grade-class`` grades only inside a bubblewrap sandbox that has proved, before any
learner code runs, that it isolates (``isolation.probe``): without ``bwrap`` on PATH, or with a
``bwrap`` that does not isolate, it refuses and says how to get one; with ``--unsandboxed`` it
grades and the report says at its top that it did so without isolation. ``harness-lab grade`` for
one learner grades either way. Each answer cell here writes a marker file when it runs, so the
tests can tell that a refused run ran no learner code.

What the kernel keeps outside every namespace (keyrings, pseudo-terminals, inotify instances) and
bwrap's own ``/dev`` stay out of learner code's reach too, run by root or by a normal user; and an
answer too large to read is the notebook's own verdict, never the grader's failure.
"""

from __future__ import annotations

import errno
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from attacks import BIG_HINT, DEVICES, FILES_AND_KEYS, INODES, INOTIFY, KEYRING_THIEF, PTYS, WITH_A_SESSION_KEY
from class_submissions import FILES, answer_cells, instructor_config, needs_sandbox, right, solution  # noqa: F401
from test_hostile_class import rows, with_code

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.isolation import ENVIRONMENT, PASSED_ON
from harness_lab.grading.namespaces import TMPFS_INODES
from harness_lab.grading.syscall_filter import number
from harness_lab.text import t
from tests.process_ids import landlock_abi

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux only")

# A "bwrap" that runs the command with none of its options: the host starts, but nothing is isolated.
IGNORES_ITS_OPTIONS = """#!{python}
import os, sys
args = sys.argv[sys.argv.index("--") + 1:]
os.execv(args[0], [a for a in args if a != "--sandboxed"])
"""
# A "bwrap" that runs the command as it is: the host tries to make its namespaces on the real system.
RUNS_IT_BARE = """#!/bin/sh
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
exec "$@"
"""


def command(*args: str | Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness_lab.cli", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def marking(exercise: str, marker: Path):
    """The reference solution, whose first answer cell also leaves ``marker`` behind when it can."""
    handed = right(exercise)
    answer_cells(handed.notebook)[
        0
    ].source += f"\ntry:\n    open({str(marker)!r}, 'w').close()\nexcept OSError:\n    pass\n"
    return handed


def path_with(folder: Path) -> dict:
    return {**os.environ, "PATH": f"{folder}:/usr/bin:/bin"}


def without_bwrap(tmp_path: Path) -> dict:
    empty = tmp_path / "no-bwrap"
    empty.mkdir(exist_ok=True)
    return {**os.environ, "PATH": str(empty)}


def test_without_bwrap_grade_class_refuses_runs_nothing_and_says_how(tmp_path):
    subs, report, marker = tmp_path / "subs", tmp_path / "report", tmp_path / "ran"
    marking("level1", marker).write(subs, "ann")
    done = command("grade-class", subs, "--out", report, env=without_bwrap(tmp_path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == t("grade.sandbox.missing") and "apt-get install bubblewrap" in done.stderr
    assert not marker.exists() and not report.exists()


def test_with_unsandboxed_it_grades_and_the_report_says_so_at_its_top(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "ann")
    done = command("grade-class", subs, "--out", report, "--unsandboxed", env=without_bwrap(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == t("grade.class.unsandboxed")
    page = (report / "index.html").read_text(encoding="utf-8")
    head = page.split("<h2>")[0]  # before the first section
    assert t("grade.class.unsandboxed") in head
    assert "ann,level1,level1_tiered_policy.ipynb,pass,pass,pass" in (report / "grades.csv").read_text("utf-8-sig")


@pytest.mark.skipif(shutil.which("setarch") is None, reason="no setarch")
def test_with_unsandboxed_on_a_machine_the_filter_does_not_know_the_report_says_the_network_was_open(tmp_path):
    """``setarch linux32`` makes the machine one the job's seccomp filter does not know (``i686`` on x86-64), as a
    POWER or RISC-V machine is: UDP is open to learner code there, whatever Landlock holds."""
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "ann")
    done = subprocess.run(
        [
            str(shutil.which("setarch")),
            "linux32",
            sys.executable,
            "-m",
            "harness_lab.cli",
            "grade-class",
            subs,
            "--out",
            report,
            "--unsandboxed",
        ],
        cwd=ROOT,
        env=without_bwrap(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # was "grade.class.unsandboxed": "had no network"
    assert done.stdout.splitlines()[0] == t("grade.class.unsandboxed.network_open")
    head = (report / "index.html").read_text(encoding="utf-8").split("<h2>")[0]
    assert t("grade.class.unsandboxed.network_open") in head and t("grade.class.unsandboxed") not in head


@needs_sandbox
def test_a_sandboxed_report_says_nothing_of_isolation(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "ann")
    out = io.StringIO()
    assert grade_class_command(subs, report, stdout=out, stderr=io.StringIO()) == 0
    assert t("grade.class.unsandboxed") not in out.getvalue()
    assert t("grade.class.unsandboxed") not in (report / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "fake, key",
    [(IGNORES_ITS_OPTIONS, "grade.sandbox.leaks"), (RUNS_IT_BARE, "grade.sandbox.broken")],
    ids=["ignores its options", "runs the host bare"],
)
def test_a_bwrap_that_does_not_isolate_is_refused_before_any_learner_code_runs(tmp_path, fake, key):
    folder = tmp_path / "fake"
    folder.mkdir()
    bwrap = folder / "bwrap"
    bwrap.write_text(fake.format(python=sys.executable), encoding="utf-8")
    bwrap.chmod(bwrap.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    subs, report, marker = tmp_path / "subs", tmp_path / "report", tmp_path / "ran"
    marking("level1", marker).write(subs, "ann")
    done = command("grade-class", subs, "--out", report, env=path_with(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    head = t(key, findings="@", reason="@").split("@")[0]
    assert done.stderr.startswith(head), done.stderr
    if key == "grade.sandbox.leaks":  # what the probe reached, in the catalog's words
        # host: no PID namespace of the notebook's own (the run's own one, with its /proc, hides the runner);
        # read and connect: the fake drops --sandboxed, and a host without the sandbox keeps its calls to their
        # own files where Landlock has file rules, and refuses their sockets where its filter knows the machine
        # (host._keep_to)
        abi, sockets = landlock_abi(), number("socket") is None
        for finding in ("host",) + (("read",) if abi < 1 else ()) + (("connect",) if sockets and abi < 4 else ()):
            assert t(f"grade.sandbox.finding.{finding}") in done.stderr, done.stderr
    assert not marker.exists()


def test_grade_for_one_learner_grades_with_and_without_bwrap(tmp_path):
    notebook = ROOT / "exercises" / "solutions" / FILES["level1"]
    for env in (dict(os.environ), without_bwrap(tmp_path)):
        done = command("grade", notebook, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert t("grade.all_passed", total=3) in done.stdout


@needs_sandbox
@pytest.mark.parametrize("unsandboxed", [False, True], ids=["sandboxed", "unsandboxed"])
def test_learner_code_sees_only_the_allowed_environment_and_is_not_root(tmp_path, unsandboxed):
    # the answer cell raises with the names and the uid it sees; the grade's message carries them
    subs, report = tmp_path / "subs", tmp_path / "report"
    nb = solution("level1")
    answer_cells(nb)[
        0
    ].source += "\nimport os\nraise RuntimeError('SEEN ' + ' '.join(sorted(os.environ)) + f' UID={os.getuid()}')\n"
    (subs / "ann").mkdir(parents=True)
    import nbformat

    nbformat.write(nb, subs / "ann" / FILES["level1"])
    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-test-isolation-0123456789", "OTHER_TOKEN": "tok-9876543210"}
    extra = ["--unsandboxed"] if unsandboxed else []
    done = command("grade-class", subs, "--out", report, *extra, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    feedback = (report / "feedback" / "ann.txt").read_text(encoding="utf-8")
    seen = feedback.split("SEEN ", 1)[1].split(" UID=")[0].split()
    allowed = {*ENVIRONMENT, *PASSED_ON, "HOME", "TMPDIR", "PWD"}  # PWD: bwrap sets it to the sandbox's folder
    assert set(seen) <= allowed, seen
    assert int(re.search(r" UID=(\d+)", feedback).group(1)) != 0


def test_what_a_host_could_not_grade_is_the_graders_failure_never_the_answers():
    from harness_lab.grading.notebook import hosted_grade
    from harness_lab.grading.sandbox import JobResult

    name = FILES["level2"]
    for outcome in (JobResult("unavailable", error="mount /nb: EPERM"), JobResult("error", error="KeyError: 'x'")):
        grade = hosted_grade(f"ann/{name}", name, outcome, 60.0)
        assert (grade.exercise, grade.key) == ("level2", "grade.class.internal")
        assert t("grade.mark.fail") not in grade.error and outcome.error in grade.error
    # what the learner's code can do to the processes grading it stays its own verdict
    assert hosted_grade(name, name, JobResult("crashed"), 60.0).key == "grade.nb.crashed"
    assert hosted_grade(name, name, JobResult("timeout"), 60.0).key == "grade.nb.timeout"


def test_a_venv_under_tmp_is_bound_over_the_sandboxs_fresh_tmp(tmp_path, monkeypatch):
    """A checkout cloned into /tmp (as a CI job may) keeps its venv visible inside the sandbox."""
    import sys

    from harness_lab.grading import isolation

    venv = tmp_path / "clone" / ".venv"
    (venv / "lib").mkdir(parents=True)  # a venv is bound by its parts (isolation._VENV)
    monkeypatch.setattr(sys, "prefix", str(venv))
    args = isolation._filesystem()
    bound = [i for i, a in enumerate(args) if a == "--ro-bind" and args[i + 1] == str((venv / "lib").resolve())]
    assert bound and args.index("--tmpfs") < bound[0], args


@needs_sandbox
def test_what_the_sandbox_binds_under_tmp_stays_in_sight_of_learner_code(tmp_path, monkeypatch, public):
    """A venv or checkout under /tmp (a CI clone, a worktree) is bound there; the notebook's own fresh
    /tmp once hid it, so learner code could not run ``sys.executable`` (the notebook that makes the
    grader the kernel's victim timed out instead of getting its memory row)."""
    from harness_lab.grading import isolation

    bound = f"/tmp/hl-bound-{uuid.uuid4().hex}"
    (public / "marker").write_text("seen", encoding="utf-8")
    os.chmod(public, 0o755)
    (public / "marker").chmod(0o644)
    filesystem = isolation._filesystem
    monkeypatch.setattr(
        isolation, "_filesystem", lambda: [*filesystem()[:-2], "--ro-bind", str(public), bound, "--remount-ro", "/"]
    )
    subs, report = tmp_path / "subs", tmp_path / "report"
    code = f"raise RuntimeError('bound: ' + open({bound + '/marker'!r}).read())\n"
    with_code(right("level1"), code).write(subs, "mal")
    assert grade_class_command(subs, report, timeout=20) == 0
    assert "RuntimeError: bound: seen" in rows(report)["mal", "level1"]["message"]
    assert not os.path.exists(bound)  # bwrap made it inside, never on the machine


# --- what the kernel keeps per machine or per user, outside every namespace ------------------------

NOBODY = 65534


def grade_class(subs: Path, report: Path, timeout: str = "8", **how) -> subprocess.CompletedProcess:
    return command_as(["grade-class", subs, "--out", report, "--timeout", timeout], **how)


def command_as(args: list, prefix: tuple = (), **how) -> subprocess.CompletedProcess:
    argv = [*prefix, sys.executable, "-m", "harness_lab.cli", *map(str, args)]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL, **how)


@pytest.fixture
def public():
    """A folder a user who is not root may use (tmp_path sits in root's own folder when root runs the tests)."""
    base = Path(tempfile.mkdtemp(prefix="hl-isolation-"))
    yield base
    shutil.rmtree(base, ignore_errors=True)


def as_a_normal_user(base: Path) -> dict:
    """How to run a command as a user who is not root (nobody, when root runs the tests): then bwrap
    gives the host a user namespace where it owns what the sandbox made, /dev among them."""
    (base / "config").mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(base), "XDG_CONFIG_HOME": str(base / "config")}
    if os.geteuid() != 0:
        return {"env": env}
    for path in [base, *base.rglob("*")]:
        os.lchown(path, NOBODY, NOBODY)
    return {"env": env, "user": NOBODY, "group": NOBODY, "extra_groups": []}


def attacked(base: Path, code: str, exercise: str = "level2") -> tuple[Path, Path]:
    """A class of one right answer and one with ``code`` in its answer cells; (submissions, report)."""
    subs, report = base / "subs", base / "report"
    right("level1").write(subs, "ann")
    with_code(right(exercise), code).write(subs, "mal")
    return subs, report


def message(report: Path, exercise: str = "level2", learner: str = "mal") -> str:
    got = rows(report)
    assert got["ann", "level1"]["score"] == "3", got["ann", "level1"]
    return got[learner, exercise]["message"]


def graded_with_a_session_key(attacks: dict[str, str], **how) -> Iterator[tuple]:
    """One class graded once with a key in the session keyring of whoever runs the command (``how``: as a
    normal user): a right answer, and each attack handed in by a learner of its own (named by ``attacks``);
    (the command's run, its report, the key, or None where no session keyring can be made: the class is
    then graded without one, and only the tests that need the key skip). Each attack was a class of its
    own, and the command's start, its hosts' and their sandbox probe cost more than the grading; each
    test still reads its own attacker's row."""
    base = Path(tempfile.mkdtemp(prefix="hl-isolation-"))
    subs, report = base / "subs", base / "report"
    right("level1").write(subs, "ann")
    for learner, code in attacks.items():
        with_code(right("level2"), code).write(subs, learner)
    how = as_a_normal_user(base) if how.get("normal_user") else {}
    args = ["grade-class", subs, "--out", report, "--timeout", "8"]
    secret: str | None = f"sk-ant-api03-{uuid.uuid4().hex}"
    done = command_as(args, prefix=(sys.executable, "-c", WITH_A_SESSION_KEY, str(secret)), **how)
    if done.returncode == 77:
        secret, done = None, command_as(args, **how)
    yield done, report, secret
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def graded_by_a_normal_user():
    attacks = {"dev": DEVICES, "pty": PTYS, "inotify": INOTIFY, "inodes": INODES, "files": FILES_AND_KEYS}
    yield from graded_with_a_session_key(attacks, normal_user=True)


@pytest.fixture(scope="module")
def graded_by_the_caller():
    yield from graded_with_a_session_key({"keys": KEYRING_THIEF, "pty": PTYS, "files": FILES_AND_KEYS})


def with_a_session_key(graded: tuple) -> tuple[subprocess.CompletedProcess, Path, str]:
    done, report, secret = graded
    if secret is None:
        pytest.skip("no session keyring can be made here")
    assert done.returncode == 0, done.stdout + done.stderr
    return done, report, secret


@needs_sandbox
def test_learner_code_reaches_no_keyring_and_the_callers_keys_stay_as_they_were(graded_by_the_caller):
    done, report, secret = with_a_session_key(graded_by_the_caller)
    assert f"KEY AFTER: {secret}\n" in done.stdout  # not replaced
    shown = message(report, learner="keys")
    assert f"keyctl -1/{errno.ENOSYS} add_key -1/{errno.ENOSYS}" in shown, shown
    written = "".join(p.read_text(errors="replace") for p in report.rglob("*") if p.is_file())
    assert secret not in written + done.stdout.replace(f"KEY AFTER: {secret}\n", "") + done.stderr


@needs_sandbox
def test_run_by_a_normal_user_learner_code_cannot_write_into_dev(graded_by_a_normal_user):
    done, report, _ = graded_by_a_normal_user
    assert done.returncode == 0, done.stdout + done.stderr
    shown = f"RuntimeError: dev: refused {errno.EROFS}, null written, 12 bytes read, shm written"
    assert shown in message(report, learner="dev"), message(report, learner="dev")


@needs_sandbox
@pytest.mark.parametrize("who", ["the caller", "a normal user"])
def test_learner_code_cannot_open_a_pseudo_terminal(who, request):
    graded = "graded_by_a_normal_user" if who == "a normal user" else "graded_by_the_caller"
    done, report, _ = request.getfixturevalue(graded)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = message(report, learner="pty")
    assert f"RuntimeError: ptys: 0 opened, then refused {errno.ENOENT}" in shown, shown


@needs_sandbox
def test_learner_code_makes_no_more_files_than_its_folders_hold(graded_by_a_normal_user):
    shown = message(graded_by_a_normal_user[1], learner="inodes")  # was "100000 made, then all"
    made = re.search(rf"inodes: (\d+) made, then refused {errno.ENOSPC}", shown)
    assert made and int(made[1]) < TMPFS_INODES, shown


@needs_sandbox
def test_learner_code_cannot_take_the_users_inotify_instances(graded_by_a_normal_user):
    done, report, _ = graded_by_a_normal_user
    assert done.returncode == 0, done.stdout + done.stderr
    shown = message(report, learner="inotify")
    assert f"RuntimeError: inotify: 0 held, then errno {errno.ENOSYS}" in shown, shown


@needs_sandbox
@pytest.mark.parametrize("who", ["the caller", "a normal user"])
def test_learner_code_opens_few_files_and_lists_no_keys(who, request):
    """One notebook's 230 processes once filled the machine's file table and failed a classmate graded
    beside it; run by a normal user, /proc/keys listed the instructor's keys by name."""
    graded = "graded_by_a_normal_user" if who == "a normal user" else "graded_by_the_caller"
    _, report, _ = with_a_session_key(request.getfixturevalue(graded))
    shown = message(report, learner="files")
    assert "files: hard 128, kept," in shown and "keys listed: 0 bytes" in shown, shown
    held = int(shown.split(" held")[0].rsplit(" ", 1)[1])
    assert held <= 128, shown


@needs_sandbox
def test_a_huge_answer_is_the_notebooks_own_verdict_kept_for_the_next_run(public):
    """30 MB sent in the judge's place once made the host too slow to answer: the grader's failure,
    graded again on every run. Unread past its size, it is the answer's tampering, and the grade stands."""
    subs, report = attacked(public, BIG_HINT, "level1")
    done = grade_class(subs, report, "60")  # the default: the host, not the notebook, ran out of time
    assert done.returncode == 0, done.stdout + done.stderr
    got = rows(report)
    assert (got["mal", "level1"]["status"], got["mal", "level1"]["hint_keys"]) == (
        "ok",
        "grade.tampered " * 2 + "grade.tampered",
    )
    assert got["ann", "level1"]["score"] == "3"
    again = grade_class(subs, report, "60")
    assert t("grade.class.done", total=2, seconds="@", graded=0, reused=2).split("@")[1] in again.stdout, again.stdout


@needs_sandbox
def test_a_venv_reached_through_a_link_grades_a_class_in_the_sandbox(tmp_path):
    """A ``.venv`` that is a link to the real one (a worktree sharing its venv) grades as the real one
    does: the sandbox binds the link's target, so the host must be started by that path."""
    import nbformat

    link = tmp_path / "linked-venv"
    link.symlink_to(Path(sys.prefix).resolve(), target_is_directory=True)
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "ann").mkdir(parents=True)
    nbformat.write(solution("level1"), subs / "ann" / FILES["level1"])
    python = link / "bin" / Path(sys.executable).name
    done = subprocess.run(
        [str(python), "-m", "harness_lab.cli", "grade-class", str(subs), "--out", str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert t("grade.all_passed", total=3) in (report / "feedback" / "ann.txt").read_text(encoding="utf-8")
