"""``harness-lab grade-class SUBMISSIONS --out REPORT``: the instructor's terminal side of class grading.

It refuses a report folder that would lose something (inside SUBMISSIONS, or a folder of other
files), grades the class (``classroom.py``) with a progress line on stderr, writes the report
(``class_report.py``) and prints what it did. The progress line is a plain ``\\r`` line, drawn only
when stderr is a terminal, so a log or CI gets no control characters.

Learner code runs in the bubblewrap sandbox (``isolation.py``): without a working one the command
refuses, saying how to get one, unless ``--unsandboxed`` is given; the report then says at its
top, and the terminal too, that it was graded without isolation. On a terminal every line it
prints starts by resetting the terminal's colours and styles, so no earlier output can hide it.

Exit codes: 0 when the report was written (whatever the grades), 2 for usage errors and a missing
sandbox, 130 when interrupted (the grades so far are kept, and a rerun continues).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..text import t
from .class_report import HTML_FILE, summary, write_report
from .classroom import STATE_FILE, Row, grade_class
from .command import RESET
from .runner import HostFailed, SandboxUnavailable

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
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    reset = RESET if stdout.isatty() else ""
    submissions, out = Path(submissions), Path(out)
    refused = _refused(submissions, out)
    if refused:
        print(refused, file=stderr)
        return 2
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
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
    write_report(result, out)
    handed = [r for r in result.rows if r.notebook]
    if not result.isolated:
        print(reset + t("grade.class.unsandboxed"), file=stdout)
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
    print(reset + t("grade.class.written", path=out / HTML_FILE), file=stdout)
    return 0


def _refused(submissions: Path, out: Path) -> str | None:
    """Why the command must not run with these folders, or None."""
    if not submissions.is_dir():
        return t("grade.class.no_folder", path=submissions)
    inside = out.resolve()
    if inside == submissions.resolve() or submissions.resolve() in inside.parents:
        return t("grade.class.out_inside", out=out, submissions=submissions)
    if out.exists() and not (out / STATE_FILE).is_file() and (not out.is_dir() or any(out.iterdir())):
        return t("grade.class.out_taken", out=out, state=STATE_FILE)
    return None


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
