"""The one verdict type: a ``Check`` per criterion, a ``Report`` of them (the exercises' graders, and
the lessons' checks of each hand-written piece, whose points are checks too: ``lessons.checking``).

An exercise's report prints one line per criterion, then one summary line (lesson 6 exercises).

The marks are words beside glyphs every Japanese font has (「○ 合格」「× 不合格」「△ 注意」, and
"[PASS]" / "[FAIL]" / "[NOTE]" in English), never emoji: a terminal or container without an emoji
font shows emoji as empty boxes, and the verdict must still read.

A grade cell fails by itself: ``GradeFailed`` is raised after a report with a failed criterion is
printed. It renders as one line in Jupyter (IPython shows ``_render_traceback_()`` in place of the
traceback) and in ``str``, so nbval, nbconvert or "run all" stop there whatever output the file
stored before.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cell_runs import failed_definition
from ..text import CATALOG, Phrase, t

__all__ = [
    "AnswerCellFailed",
    "Check",
    "GradeFailed",
    "GradeInterrupted",
    "MALFORMED",
    "Report",
    "failed_run",
    "flat",
    "guarded",
    "kept",
    "kept_from",
    "plain_values",
    "print_lines",
    "retold",
    "show",
    "stale_answers",
]

# Line breaks and other control characters in a quoted value, written out as escapes.
_ONE_LINE = {c: f"\\x{c:02x}" for c in (*range(32), 127, 0x85)} | {0x2028: "\\u2028", 0x2029: "\\u2029"}
_ONE_LINE |= {10: "\\n", 13: "\\r", 9: " "}

# What reading a child's summary raises when it is not what the grader's own child code sends.
MALFORMED = (TypeError, ValueError, KeyError, AttributeError, IndexError)
# Characters of one quoted text a hint keeps. The grader's children send a few hundred (``describe_error``
# cuts at 200), but learner code may answer in a child's name: three criteria quoting 900,000 characters each
# made the judge's own answer too large to send, and the notebook's grade said its process had ended.
QUOTED = 2000


def flat(values: dict[str, object]) -> dict[str, object]:
    """``values`` for a catalog entry of one line: each text kept on one line, so no quoted text of the
    learner's (what it returned, what it raised, its exception's type name) can start a line of the report
    that looks like the grader's own, and cut at ``QUOTED`` characters."""
    return {k: _quoted(v).translate(_ONE_LINE) if isinstance(v, str) else v for k, v in values.items()}


def _quoted(text: str) -> str:
    return text if len(text) <= QUOTED else text[: QUOTED - 1] + "…"


# A hint's value as a grade keeps it: a number as it is, a catalog entry by its key (a 1-tuple; a list once
# through JSON), anything else as the one line of text the hint showed.
Kept = str | int | float | tuple[str]


def kept(values: dict[str, object]) -> tuple[tuple[str, Kept], ...]:
    """``values`` (as ``flat`` made them) as a grade keeps them beside its hint, so a report in another language
    can tell the hint again (``retold``): the class page and grades.csv are in the instructor's language."""
    return tuple((name, _kept(value)) for name, value in values.items())


def _kept(value: object) -> Kept:
    if type(value) in (int, float):  # a count keeps its number: "{n:turns}" reads "1 turn" from it
        return value  # type: ignore[return-value]  # mypy cannot narrow by type() in a tuple
    if type(value) is Phrase and not value.values:  # a catalog entry told in the reader's language
        return (value.key,)
    return _quoted(format(value)).translate(_ONE_LINE)


def plain_values(values: tuple[tuple[str, Kept], ...]) -> dict[str, object]:
    """Kept values as plain values (JSON's, the wire's): a dict, a catalog entry's key in a list."""
    return {name: list(value) if isinstance(value, tuple) else value for name, value in values}


def kept_from(plain: object) -> tuple[tuple[str, Kept], ...]:
    """Values back from ``plain_values`` (a grading host's answer, a class record), checked as learner text:
    each text cut to one line of ``QUOTED`` characters again, and anything of another shape read as no
    values at all, so its hint stays as its learner read it."""
    if not isinstance(plain, dict):
        return ()
    found: list[tuple[str, Kept]] = []
    for name, value in plain.items():
        if type(name) is not str:
            return ()
        if type(value) is float or (type(value) is int and abs(value) < 10**18):  # no number Python cannot print
            found.append((name, value))
        elif type(value) is str:
            found.append((name, _quoted(value).translate(_ONE_LINE)))
        elif type(value) in (list, tuple) and len(value) == 1 and type(value[0]) is str:
            found.append((name, (value[0],)))
        else:
            return ()
    return tuple(found)


def retold(key: str, values: tuple[tuple[str, Kept], ...], said: str) -> str:
    """The hint or error ``key`` told again in the language in use, from the values its grade kept; ``said``,
    as its learner read it, where they cannot tell it: a grade kept before grades kept values, or values
    that do not fill the entry. A value is only ever filled in as text or a number, never read as a field."""
    if key not in CATALOG:
        return said
    try:
        filled = {name: t(value[0]) if isinstance(value, tuple) else _line_retold(value) for name, value in values}
        return t(key, **filled)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):  # a field no value fills, a spec it fails
        return said


# Where an error a grade kept ends with the line that raised it, in the words of the language it was graded in
# (``wire.describe_error``): the key of those words and what fills them.
_RAISED_AT = ("grade.raised_at", "grade.raised_at_line")


def _line_retold(value: Kept) -> Kept:
    """A kept text that ends with the line that raised (in either language), that ending told in the language in
    use: a class page in English once quoted "ValueError: boom（`raise …` の行）" from a notebook graded in Japanese."""
    if not isinstance(value, str):
        return value
    for key in _RAISED_AT:
        for said in CATALOG.get(key, ()):
            pattern = re.escape(said).replace(r"\{function\}", "(?P<function>.+?)").replace(r"\{line\}", "(?P<line>.*)")
            found = re.search(pattern + "$", value)
            if found:
                return value[: found.start()] + t(key, **found.groupdict())
    return value


@dataclass(frozen=True)
class Check:
    """The verdict on one criterion. ``hint`` explains a failure; ``warning`` qualifies a pass.

    ``key`` names the catalog entry the hint came from, so a test (or a class report) can tell
    which hint was given whatever the language; ``values`` are what filled it (``kept``), so a class
    report tells it in the instructor's language (``retold``).
    """

    number: int
    title: str
    passed: bool
    hint: str = ""
    warning: str = ""
    key: str = ""
    values: tuple[tuple[str, Kept], ...] = ()

    @classmethod
    def fail(cls, number: int, title: str, key: str, **values: object) -> Check:
        """A failed criterion whose hint is the catalog entry ``key``, formatted with ``values``.

        A value may quote the learner's code (what it returned, what it raised); it is kept on one
        line (``flat``).
        """
        shown = flat(values)
        return cls(number, title, False, t(key, **shown), key=key, values=kept(shown))

    def line(self) -> str:
        criterion = t("grade.criterion", number=self.number)
        if self.passed:
            line = f"{t('grade.mark.pass')} {criterion}: {self.title}"
            return f"{line}  {t('grade.mark.note')}: {self.warning}" if self.warning else line
        return f"{t('grade.mark.fail')} {criterion}: {self.title} — {t('grade.hint')}: {self.hint}"


@dataclass(frozen=True)
class Report:
    """All criteria of one exercise, in order."""

    exercise: str
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def score(self) -> int:
        return sum(c.passed for c in self.checks)

    def failed(self) -> list[int]:
        """Numbers of the criteria that failed (what the tests assert on)."""
        return [c.number for c in self.checks if not c.passed]

    def text(self) -> str:
        lines = [c.line() for c in self.checks]
        if self.passed:
            lines.append(t("grade.all_passed", total=len(self.checks)))
        else:  # "0つを満たしています" is no Japanese anyone says
            key = "grade.some_passed" if self.score else "grade.none_passed"
            lines.append(t(key, score=self.score, total=len(self.checks)))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()


class GradeFailed(Exception):
    """A grade cell's report has a failed criterion: the cell fails, in one line."""

    def __init__(self, report: Report) -> None:
        self.report = report
        numbers = t("grade.failed_join").join(str(n) for n in report.failed())
        super().__init__(t("grade.failed", numbers=numbers))

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


class GradeInterrupted(KeyboardInterrupt):
    """A grade cell interrupted (Kernel > Interrupt, Ctrl-C): it says so in one line, not in the grader's
    traceback, and stays a KeyboardInterrupt, so "run all" still stops there."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


class AnswerCellFailed(Exception):
    """A grade cell run after an answer cell raised: the cell fails, in one line, naming that cell's error."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


def stale_answers(**given: Any) -> None:
    """Raise ``AnswerCellFailed`` when one of ``given``'s names still holds what it held before its answer
    cell raised (a SyntaxError: nothing in the cell ran). The grade would judge that earlier answer, not
    the one the learner just wrote, and pass or fail it; ``harness-lab grade`` reads the file, and fails."""
    for name, value in given.items():
        failed = failed_definition(name)
        if failed is not None and value is failed[1]:
            raise AnswerCellFailed(t("grade.cell_failed", name=name, error=failed[0])) from None


def show(grade: Callable[[], Report]) -> None:
    """Grade and print the report; raise ``GradeFailed`` if a criterion failed (what a grade cell does).

    Interrupted while a learner's code runs in a child, the grader stopped in its own code: the cell
    showed a traceback through the bridge, in none of the course's words. It now says that the grade
    was interrupted and gave no verdict."""
    try:
        report = grade()
    except KeyboardInterrupt:
        raise GradeInterrupted(t("grade.interrupted")) from None
    print_lines(report.text().split("\n"))
    if not report.passed:
        raise GradeFailed(report) from None


def print_lines(lines: list[str]) -> None:
    """Print an options listing (``level1_options()``, ``level2_options()``) or a grade report; in IPython, as
    HTML too.

    A notebook draws printed text as one block that wraps a long line back to its left edge: at 900 px
    a description's second line began left of its own key, and a hint's under the × of its criterion, so
    the next key or criterion was hard to pick out. The HTML wraps each line with a hanging indent, and
    lines up with printed text, at its line spacing. Its
    text, what a terminal, nbval and the graders read, is the printed one.
    """
    text = "\n".join(lines)
    ipython = sys.modules.get("IPython")  # never imported here: outside IPython the text is printed
    if ipython is None or ipython.get_ipython() is None:
        print(text)
        return
    rows = "".join(
        f'<div style="padding-left:{len(line) - len(line.lstrip(" ")) + 2}ch;text-indent:-2ch">'
        f"{html.escape(line.lstrip(' '), quote=False)}</div>"
        for line in lines
    )
    # As JupyterLab sets printed text: 1ch in from the edge and its line spacing, not HTML's looser one.
    font = (
        "font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,13px);"
        "line-height:var(--jp-code-line-height,1.3077);padding-left:1ch"
    )
    from IPython.display import display

    display({"text/plain": text, "text/html": f'<div style="{font}">{rows}</div>'}, raw=True)


def failed_run(number: int, title: str, outcome: Any) -> Check:
    """The fail of a criterion whose child sent no summary (a ``JobResult`` that is not "ok"): what the
    learner's code raised, or why the child ended."""
    if outcome.status == "tampered":
        return Check.fail(number, title, "grade.tampered")
    if outcome.status == "error":
        return Check.fail(number, title, "grade.raised", error=outcome.error)
    if outcome.status == "timeout":
        return Check.fail(number, title, "grade.timeout")
    if outcome.status == "memory":
        return Check.fail(number, title, "grade.memory", mb=outcome.value)
    return Check.fail(number, title, "grade.crashed")


def guarded(number: int, title: str, judge: Callable[[], Check]) -> Check:
    """A criterion judged from what its child sent; a summary no honest child sends fails it.

    The child runs the learner's code, which can replace the grader's code there; what it sends back
    is then the learner's own word, and any shape the judge cannot read is a fail, not a crash.
    """
    try:
        return judge()
    except MALFORMED:
        return Check.fail(number, title, "grade.tampered")
