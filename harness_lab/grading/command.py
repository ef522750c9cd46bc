"""``python -P -m harness_lab.grading NOTEBOOK...`` and ``harness-lab grade``: one learner's notebooks.

Each notebook is graded as ``notebook.grade_notebook`` grades it, in a grading host (``runner.py``):
inside the bubblewrap sandbox where it works (``isolation.py``), else on Linux in a host without
isolation (run as root, as an unprivileged user), whose environment is the allow-list grade-class's
hosts get: a notebook handed over by a classmate never sees the caller's ``ANTHROPIC_API_KEY``. Only
where no host runs is it graded here, as before, with what the judge needs imported first and no
folder of the command's own (the working folder) left on ``sys.path``. Without the sandbox the
command says so on stderr. A host lost on one notebook is replaced by one started the same way, or by none:
the notebooks left are then the grader's failure, never graded with less isolation than was said. The lines it prints come through
``redact.Redactor`` (no escape sequences; without the sandbox, no value of the caller's environment) and, on a terminal,
each starts by resetting the terminal's colours and styles, so no earlier output can hide them.

Exit code 0 when every notebook meets every criterion, 1 otherwise, 2 for usage errors: among them
files that are all no notebook (missing, no regular file, over 8 MB, not JSON, no list of cells), found
before any grading starts. Among notebooks, such a file is told as not graded, in its place among the
verdicts, and the others are graded (exit 1): one broken file no longer costs the learner every grade.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from ..checks import seconds
from ..command_line import LANGUAGE_CHOICES, Parser, language, requested_language
from ..terminal import visible
from ..text import explicit_language, lang, speaking, t
from . import landlock
from .adopted import end_adopted
from .host import prepare_judge
from .isolation import Launch
from .notebook import NOTEBOOK_TIMEOUT, NotebookGrade, grade_call, grade_notebook, hosted_grade
from .notebook_code import edition_or
from .notebook_file import MAX_NOTEBOOK_BYTES, NotRegular, OthersFile, OthersLink, TooLarge, read_notebook
from .processes import keep_private
from .redact import Redactor, own_text
from .runner import Host, HostFailed, SandboxUnavailable
from .sandbox import JobResult, describe_error
from .syscall_filter import sockets_refused_here

__all__ = ["RESET", "grade_files", "main", "not_a_notebook", "start_host"]

RESET = "\x1b[0m"  # SGR 0: default colours, no concealed or blinking text


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """The grading command; exit code 0 when every notebook meets every criterion, 1 otherwise, 2 for usage errors."""
    # the help and the usage errors are printed while argparse parses: in the --lang asked for, if any
    with speaking(requested_language(sys.argv[1:] if argv is None else argv) or lang()):
        parser = Parser(prog="python -P -m harness_lab.grading", description=t("grade.nb.usage.help_description"))
        parser.add_argument("notebooks", nargs="+", help=t("grade.nb.usage.help_notebooks"))
        timeout_help = t("grade.nb.usage.help_timeout", default=f"{NOTEBOOK_TIMEOUT:g}")
        parser.add_argument("--timeout", type=seconds, default=NOTEBOOK_TIMEOUT, metavar="S", help=timeout_help)
        parser.add_argument(
            "--lang", type=language, metavar=LANGUAGE_CHOICES, default=None, help=t("grade.nb.usage.help_lang")
        )
        args = parser.parse_args(argv)
    if args.lang:
        os.environ["HARNESS_LAB_LANG"] = args.lang
    return grade_files(args.notebooks, timeout=args.timeout, out=out)


def _unsandboxed_note(host: Host | None) -> str:
    """What held for the answer cells graded without the sandbox: nothing in this process; in a host, the job's
    Landlock layer where this kernel has one, and the seccomp filter where it keeps a process off the network
    here (``host._keep_to``): on a machine it does not know, Landlock's rules leave UDP open."""
    if host is None:
        return "grade.sandbox.in_process"
    if not landlock.available():
        return "grade.sandbox.not_isolated.files_open"
    return "grade.sandbox.not_isolated" if sockets_refused_here() else "grade.sandbox.not_isolated.network_open"


def grade_files(paths: list[str], *, timeout: float | None = None, out: TextIO | None = None) -> int:
    """Grade and print each notebook (one learner's); 0 when every one meets every criterion, 1 otherwise,
    2 (nothing graded) when none is a notebook file; one that is not is told as not graded, in its place."""
    out = out or sys.stdout
    timeout = NOTEBOOK_TIMEOUT if timeout is None else timeout
    # Without a namespace, an answer cell runs as this process's user: while it is dumpable, that code
    # reads the caller's key in /proc/PID/environ and writes a verdict of its own into /proc/PID/fd/1.
    keep_private()
    refused = {path: why for path in paths if (why := not_a_notebook(path))}
    if len(refused) == len(paths):
        print("\n".join(refused.values()), file=sys.stderr)
        return 2
    # the reader's language (--lang, HARNESS_LAB_LANG) if they chose one, else each notebook's edition's;
    # a file refused is never read again (a FIFO was waited on for ever, a link to /dev/zero read)
    languages = [explicit_language() or ("" if path in refused else _edition(path)) for path in paths]
    spoken = {language for path, language in zip(paths, languages) if path not in refused}
    common = spoken.pop() if len(spoken) == 1 else lang()  # for what is said of them all
    host = start_host()
    # a host lost on a notebook is replaced by one of its kind or none, never graded with less isolation than
    # the note below says: an answer cell that kills each host started after its own (no user namespace, no
    # Landlock scopes) had every later notebook graded in this process, with the caller's key in reach
    launch = host.launch if host is not None else None
    if host is None:
        _judge_here()
    if host is None or not host.launch.sandboxed:
        with speaking(common):
            print(t(_unsandboxed_note(host)), file=sys.stderr)
    redactor = Redactor.for_launch(host.launch if host is not None else None, list)
    reset = RESET if out.isatty() else ""
    grades = []
    try:
        for path, language in zip(paths, languages):
            if path in refused:
                with speaking(common):  # the reason too: it was told in the caller's language
                    reason = not_a_notebook(path) or refused[path]  # changed since: as it was found
                    print(reset + t("grade.nb.not_graded", reason=reason), file=out, flush=True)
                continue
            with speaking(language):  # here, and in the host through the call's arguments
                if host is None and launch is not None:
                    host = start_host(only=launch)
                grade, own, lost = _graded(host, launch, path, timeout, language)
                # the grader's failure, told as such; the next notebook gets a new host of its kind
                if lost and host is not None:
                    host.close()
                    host = None
                # what the answer cells left behind their host, come here once what ran them is gone: it would
                # kill the next notebook's judge (its grade a crash, told as its own) or host
                end_adopted(keep=[host.process.pid] if host is not None else [])
                grades.append(grade)
                # the file's name heads its lines: a name is the learner's to choose, escapes and all
                text = redactor.grade(replace(grade, path=visible(grade.path)), own).text()
            print("\n".join(reset + line for line in text.splitlines()), file=out, flush=True)
    finally:
        if host is not None:
            host.close()
        end_adopted()
    if len(paths) > 1:
        with speaking(common):
            # only the notebooks graded are counted as notebooks; a file refused is named as what it is
            summary = t("grade.nb.summary", passed=sum(g.passed for g in grades), total=len(grades))
            if refused:
                summary += " " + t("grade.nb.summary_unread", count=len(refused))
        print(reset + summary, file=out)
    return 0 if all(g.passed for g in grades) and not refused else 1


def not_a_notebook(path: str) -> str | None:
    """Why ``path`` is no notebook file to grade, or None.

    Asked of every file before the grading host starts (seconds of a sandbox's start): a path
    mistyped, a README or a notebook's JSON with no list of cells is the command's usage error,
    told in a sentence, not a learner's answer failing with Python's words (KeyError: 'cells').
    """
    shown = visible(path)
    try:
        data = read_notebook(path, follow=True)
    except FileNotFoundError:
        return t("grade.nb.usage.not_found", path=shown)
    except IsADirectoryError:
        return t("grade.nb.usage.folder", path=shown)
    except NotRegular:
        return t("grade.nb.usage.not_regular", path=shown)
    except OthersLink as link:
        return t("grade.nb.usage.others_link", path=shown, link=visible(link.link))
    except OthersFile as other:
        return t("grade.nb.usage.others_file", path=shown, owner=other.values["owner"])
    except TooLarge:
        return t("grade.nb.usage.too_large", path=shown, limit=MAX_NOTEBOOK_BYTES >> 20)
    except OSError as exc:
        return t("grade.nb.usage.unreadable", path=shown, error=describe_error(exc))
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return t("grade.nb.usage.not_json", path=shown)
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        return t("grade.nb.usage.no_cells", path=shown)
    return None  # what else a notebook may lack (tags, an exercise), its grade says


def _edition(path: str) -> str:
    """The language of the notebook file's edition, read as it is graded; "ja" for one that cannot be read
    (changed since it was checked: its grade says so)."""
    try:
        return edition_or(read_notebook(path, follow=True), "ja")
    except OSError:
        return "ja"


def start_host(only: Launch | None = None) -> Host | None:
    """A grading host in the sandbox; without one, an unsandboxed host (as root, as another user); else None.
    ``only``: a host of that launch, or None (a lost host's replacement).

    A host without the sandbox still runs learner code with an allow-listed environment and a folder
    of its own: the notebook may be a classmate's, and the caller's ``ANTHROPIC_API_KEY`` is no
    business of its code. Only Linux gets one there (the host's keyring and limit checks are Linux's).
    """
    if not hasattr(os, "fork"):
        return None
    launch = only or Launch.choose()
    tries = [launch] if only else [launch, replace(launch, bwrap=None)]
    for choice in dict.fromkeys(tries):
        if not choice.sandboxed and not sys.platform.startswith("linux"):
            continue
        host = Host(choice)
        try:
            host.start()
            return host
        except (SandboxUnavailable, HostFailed):
            continue  # graded as before: without the sandbox
    return None


def _graded(
    host: Host | None, launch: Launch | None, path: str, timeout: float, language: str
) -> tuple[NotebookGrade, str, bool]:
    """(the grade, the notebook's own text, which redaction leaves alone, whether the host was lost);
    ``launch``: the first host's, whose kind alone may grade (None: graded here)."""
    try:
        data = read_notebook(path, follow=True)
    except OSError as exc:  # changed since it was checked
        unreadable = NotebookGrade(path, "", "error", error=t("grade.nb.unreadable", error=describe_error(exc)))
        return replace(unreadable, key="grade.nb.unreadable"), "", False
    own = own_text(data)
    name = Path(path).name
    if host is None and launch is not None:  # lost, and none of its kind would start again: not graded
        unstarted = JobResult("unavailable", error=t("grade.nb.host_not_restarted"))
        return hosted_grade(path, name, unstarted, timeout), own, False
    if host is None:
        return grade_notebook(path, timeout=timeout), own, False
    try:
        outcome, lost = host.call(grade_call(name, data, timeout, language=language)), False
    except HostFailed as exc:
        outcome, lost = JobResult("unavailable", error=str(exc)), True
    return hosted_grade(path, name, outcome, timeout), own, lost


def _judge_here() -> None:
    """Grading in this process: no folder of the command's on ``sys.path``, the judge's imports done."""
    here = {"", ".", os.getcwd()}
    sys.path[:] = [entry for entry in sys.path if entry not in here]
    prepare_judge()
