"""``harness-lab grade-class SUBMISSIONS --out REPORT``: the instructor's terminal side of class grading.

It refuses a report folder that would lose something (inside SUBMISSIONS, or a folder of other
files) or that others could tamper with (a symbolic link, a folder of another account or one that
every account may write), grades the class (``classroom.py``) with a progress line on stderr,
writes the report (``report_files.py``) and prints what it did. A new report folder is made with
mode 0700: it holds learners' grades and answers. One run at a time writes a report folder: a second one
is refused, exit 2, while the first holds the folder's lock (``report_folder.lock``), which ends with the
run that held it, however it ended; the refusal names the PID of the run that holds it and how long it has
run (``report_folder.claim``). The progress line is a plain ``\\r`` line, drawn
only when stderr is a terminal, so a log or CI gets no control characters.

Learner code runs in the bubblewrap sandbox (``isolation.py``): without a working one the command
refuses, saying how to get one, unless ``--unsandboxed`` is given; the report then says at its
top, and the terminal too, that it was graded without isolation. On a terminal every line it
prints starts by resetting the terminal's colours and styles, so no earlier output can hide it.

It speaks the language asked for (``--lang``, ``HARNESS_LAB_LANG``); when none was, the language of
the class's notebooks' edition if they all name the same one, else Japanese. Each learner's feedback is
in their own edition's language whatever it speaks.

Exit codes: 0 when the report was written (whatever the grades), 1 when a part of it could not be
(each named on stderr and, if it could be written, on the page), 2 for usage errors (SUBMISSIONS with
no learner folder in it among them), a report folder another run is writing, and a missing sandbox, 130 when interrupted (the grades so far are kept, and a rerun continues).
"""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path
from typing import TextIO

from ..text import explicit_language, speaking, t
from .class_changes import PREVIOUS_CSV
from .class_report import CSV_FILE, FEEDBACK_DIR, HTML_FILE, summary, unsandboxed_note
from .classroom import STATE_FILE, Row, grade_class, handed_editions
from .command import RESET
from .isolation import Launch, notebooks_apart
from .report_files import write_report
from .report_folder import HOLDER, Busy, claim, holder, lock, release
from .runner import HostFailed, SandboxUnavailable
from .sandbox import describe_error

__all__ = ["grade_class_command"]


def grade_class_command(
    submissions: str | Path,
    out: str | Path,
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    unsandboxed: bool = False,
) -> int:
    # An English class's instructor who asked for no language reads English: its notebooks all say so.
    editions = handed_editions(Path(submissions)) if Path(submissions).is_dir() else set()
    language = explicit_language() or (editions.pop() if len(editions) == 1 else "ja")
    with speaking(language):
        return _grade_class(Path(submissions), Path(out), jobs, timeout, stdout, stderr, unsandboxed)


def _grade_class(
    submissions: Path,
    out: Path,
    jobs: int | None,
    timeout: float | None,
    stdout: TextIO | None,
    stderr: TextIO | None,
    unsandboxed: bool,
) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    held = claimed = None
    try:
        # locked before it is looked at: a run under way leaves its partial files in it ("already holds files")
        held = _locked(out) if out.is_dir() and not out.is_symlink() else None
        refused = _refused(submissions, out)
        if refused:
            print(refused, file=stderr)
            return 2
        created = not os.path.lexists(out)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            if created:
                os.mkdir(out, 0o700)
            held = held if held is not None else _locked(out)
        except OSError as exc:
            print(t("grade.class.out_unusable", out=out, error=describe_error(exc)), file=stderr)
            return 2
        claim(held, out, lambda note: print(note, file=stderr))
        claimed = held
        return _graded_into(submissions, out, held, created, jobs, timeout, stdout, stderr, unsandboxed)
    except Busy:
        print(_busy(out), file=stderr)
        return 2
    finally:
        release(claimed)
        if held is not None:
            os.close(held)


def _busy(out: Path) -> str:
    """The refusal of a report folder another run holds, naming that run when its HOLDER file can."""
    running = holder(out)
    if running is None:
        return t("grade.class.out_busy", out=out)
    pid, started = running
    return t("grade.class.out_busy_by", out=out, pid=pid, running=_duration(time.time() - started))


def _duration(seconds: float) -> str:
    whole = max(0, int(seconds))
    if whole < 60:
        return t("grade.class.seconds", s=whole)
    if whole < 3600:
        return t("grade.class.minutes", m=whole // 60, s=whole % 60)
    return t("grade.class.hours", h=whole // 3600, m=whole % 3600 // 60)


def _locked(out: Path) -> int | None:
    try:
        return lock(out)  # Busy goes up: another run is writing this report
    except OSError:  # a link or a file: _refused says so
        return None


def _graded_into(
    submissions: Path,
    out: Path,
    held: int | None,
    created: bool,
    jobs: int | None,
    timeout: float | None,
    stdout: TextIO,
    stderr: TextIO,
    unsandboxed: bool,
) -> int:
    reset = RESET if stdout.isatty() else ""
    if unsandboxed and not notebooks_apart(Launch.choose(unsandboxed)):
        print(t("grade.class.one_at_a_time"), file=stderr)
    progress = _Progress(stderr)
    try:
        result = grade_class(
            submissions,
            out / STATE_FILE,
            jobs=jobs,
            timeout=timeout,
            on_row=progress.row,
            on_note=lambda note: print(note, file=stderr),
            unsandboxed=unsandboxed,
        )
    except (SandboxUnavailable, HostFailed) as unavailable:
        progress.end()
        release(held)  # a folder this run made goes again as it came: empty
        if created and not any(out.iterdir()):
            out.rmdir()
        refusal = (
            unavailable if isinstance(unavailable, SandboxUnavailable) else t("grade.class.no_host", reason=unavailable)
        )
        print(refusal, file=stderr)
        return 2
    except KeyboardInterrupt:
        progress.end()
        print(t("grade.class.interrupted", done=progress.done, state=out / STATE_FILE), file=stderr)
        return 130
    progress.end()
    failed, moved = write_report(result, out, note=lambda note: print(note, file=stderr))
    for line in failed:
        print(line, file=stderr)
    handed = [r for r in result.rows if r.notebook]
    if not result.isolated:
        print(reset + unsandboxed_note(), file=stdout)
    print(
        reset
        + t(
            "grade.class.done",
            total=len(handed),
            seconds=f"{result.seconds:.1f}",
            graded=result.graded,
            reused=result.reused,
        ),
        file=stdout,
    )
    print(reset + summary(result), file=stdout)
    if failed:
        print(t("grade.class.report_incomplete", count=len(failed), out=out), file=stderr)
        return 1
    # every file an instructor opens, by its path: the page, the gradebook to import, the feedback to hand back
    written = [
        t("grade.class.written", path=out),
        t("grade.class.written.page", path=out / HTML_FILE),
        t("grade.class.written.csv", path=out / CSV_FILE),
        t("grade.class.written.feedback", path=out / FEEDBACK_DIR),
    ]
    if moved is not None:
        written.append(t("grade.class.written.previous", path=out / PREVIOUS_CSV, count=len(moved)))
    print("\n".join(reset + line for line in written), file=stdout)
    return 0


def _refused(submissions: Path, out: Path) -> str | None:
    """Why the command must not run with these folders, or None."""
    if submissions.is_file():
        return t("grade.class.submissions_file", path=submissions)
    if not submissions.is_dir():
        return t("grade.class.no_folder", path=submissions)
    empty = _no_learners(submissions)
    if empty:
        return empty
    inside = out.resolve()
    if inside == submissions.resolve() or submissions.resolve() in inside.parents:
        return t("grade.class.out_inside", out=out, submissions=submissions)
    try:
        info = os.lstat(out)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return t("grade.class.out_unusable", out=out, error=describe_error(exc))
    if stat.S_ISLNK(info.st_mode):  # a link swapped in later would move the report elsewhere: name the folder
        return t("grade.class.out_link", out=out, target=inside)
    if not stat.S_ISDIR(info.st_mode):  # "already holds files" would send the instructor looking inside it
        return t("grade.class.out_file", out=out)
    # an entry named state.json of any kind marks a report: one that is not a file is replaced, with a note
    if not os.path.lexists(out / STATE_FILE) and any(entry.name != HOLDER for entry in out.iterdir()):
        return t("grade.class.out_taken", out=out, state=STATE_FILE)
    if info.st_uid != os.geteuid() or info.st_mode & stat.S_IWOTH:
        return t("grade.class.out_not_private", out=out)
    return None


def _no_learners(submissions: Path) -> str | None:
    """Why SUBMISSIONS holds nothing to grade, or None. A learner's own folder given in its place, an
    empty one or one the caller cannot list was graded as "0 learners" and exit 0: an instructor could take
    that for a quiet week (collect.sh makes SUBMISSIONS root's alone, and grade-class may run as you)."""
    try:
        with os.scandir(submissions) as listing:  # hidden entries are skipped, as the grader skips them
            shown = [entry for entry in listing if not entry.name.startswith(".")]
    except PermissionError as exc:
        return t("grade.class.submissions_denied", path=submissions, error=describe_error(exc))
    except OSError as exc:
        return t("grade.class.submissions_unreadable", path=submissions, error=describe_error(exc))
    if any(entry.is_dir(follow_symlinks=False) for entry in shown):
        return None
    if any(entry.name.lower().endswith(".ipynb") for entry in shown):
        return t("grade.class.learner_folder", path=submissions)
    return t("grade.class.no_learners", path=submissions)


class _Progress:
    """The line on stderr that says how far the batch is; silent when stderr is not a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = stream.isatty()
        self.done = self.timeouts = self.errors = 0
        self.width = 0

    def row(self, row: Row, done: int, total: int) -> None:
        self.done = done
        self.timeouts += row.grade.status == "timeout"
        self.errors += row.grade.status == "error"
        if self.shown:
            line = t("grade.class.progress", done=done, total=total, timeouts=self.timeouts, errors=self.errors)
            self.stream.write("\r" + line + " " * max(0, self.width - len(line)))
            self.stream.flush()
            self.width = len(line)

    def end(self) -> None:
        if self.shown and self.width:
            self.stream.write("\n")
            self.stream.flush()
