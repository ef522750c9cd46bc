"""A graded class written out: the gradebook CSV, each learner's feedback, the instructor's page (issue 17).

- ``grades.csv``: one row per learner and exercise (learner, exercise, notebook, ``criterion_1``…
  ``criterion_N`` as pass / fail, the failed criteria's hint keys, score, max_score, status, message,
  and last ``edition``: ``ja`` or ``en``, the course edition the notebook is from, "" for none).
  UTF-8 with a BOM, so Excel reads Japanese names right; the column names and the values other than
  ``message`` are fixed ASCII words a gradebook import can map, whatever the language. ``message``,
  like every hint and error on the page, is in the instructor's language (``--lang``), told again from
  the values its grade kept (``report.retold``: a learner's values are filled in as text, never read as
  fields); a grade recorded before grades kept their values tells one that quotes a value as its learner
  read it. A cell that
  a spreadsheet would take for a formula (it begins with ``=``, ``+``, ``-``, ``@``, in ASCII or
  full width, a tab, a carriage return or a line feed: a learner folder named ``=HYPERLINK(...)`` or
  ``＝cmd|…``) gets a leading ``'``, OWASP's guard against CSV injection, so it shows as text.
- ``feedback/<learner>.txt``: the lines the learner's grade cell prints, notebook by notebook, then
  what was missing or not graded; in the language of the learner's edition (each notebook in its
  own), whatever ``--lang`` says: ``--lang`` is the instructor's, for the page and the terminal.
  A learner who handed in no notebook that names an edition, or notebooks of both, reads the rest
  in the instructor's language.
- ``index.html``: pass rate per criterion as a bar chart (inline SVG), the most common hints with the
  shortest answer that got each (the part of it the hint points at, ``class_sample.py``), the edition (Japanese, English) each learner handed in, and every
  timeout, error and missing exercise, and the files not graded (``not_graded.py``: at most 50 named a folder);
  what the run noticed about its record and report folder comes first. Every name is escaped.

Everything is derived from the rows alone, in a fixed order: the same grades make the same bytes.
``report_files.py`` writes them.
"""

from __future__ import annotations

import csv
import html
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..terminal import visible
from ..text import lang, speaking, t
from . import not_graded
from .class_changes import PREVIOUS_CSV, SHOWN, Change
from .class_sample import sample_of
from .classroom import ClassResult, Row
from .gradebook_cell import as_text, in_gradebook
from .notebook import CHECK_TIMEOUT, EXERCISES
from .report import retold
from .syscall_filter import sockets_refused_here

__all__ = [
    "CSV_FILE",
    "FEEDBACK_DIR",
    "HTML_FILE",
    "chart",
    "criteria_count",
    "feedback",
    "footer",
    "gradebook",
    "page",
    "summary",
    "unsandboxed_note",
]

CSV_FILE = "grades.csv"
HTML_FILE = "index.html"
FEEDBACK_DIR = "feedback"
TOP_HINTS = 10  # hints listed on the page, most common first

# the bar chart's geometry, in SVG user units
_LABEL_W, _BAR_W, _ROW_H, _BAR_H, _PAD = 80, 420, 30, 18, 10


def criteria_count() -> int:
    return max(len(ex.criteria) for ex in EXERCISES.values())


# --- grades.csv -----------------------------------------------------------------------------------


def gradebook(result: ClassResult) -> str:
    count = criteria_count()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(
        [
            "learner",
            "exercise",
            "notebook",
            *(f"criterion_{n}" for n in range(1, count + 1)),
            "hint_keys",
            "score",
            "max_score",
            "status",
            "message",
            "edition",  # last, so a reader of the columns before it finds them where they were
        ]
    )
    for row in result.rows:
        grade = row.grade
        checks = grade.reports[0].checks if grade.status == "ok" and grade.reports else ()
        marks = ["pass" if c.passed else "fail" for c in checks]
        marks += [""] * (count - len(marks))
        if grade.status == "ok":
            keys = " ".join(c.key for c in checks if not c.passed and c.key)
        else:
            keys = grade.key
        exercise = EXERCISES.get(grade.exercise)
        most = len(checks) if checks else len(exercise.criteria) if exercise else count
        cells = [
            in_gradebook(row.learner),  # names as collected from elsewhere (an LMS download) may hold escapes
            grade.exercise,
            in_gradebook(row.notebook),
            *marks,
            keys,
            sum(c.passed for c in checks),
            most,
            grade.status,
            "" if grade.status == "ok" else retold(grade.key, grade.values, grade.error),
            row.edition,
        ]
        writer.writerow([as_text(cell) for cell in cells])
    return buffer.getvalue()


# --- feedback/<learner>.txt ----------------------------------------------------------------------


def feedback(result: ClassResult, learner: str) -> str:
    rows = [row for row in result.rows if row.learner == learner]
    editions = {row.edition for row in rows if row.edition}
    language = editions.pop() if len(editions) == 1 else lang()
    with speaking(language):
        lines = [t("grade.class.feedback_title", learner=visible(learner)), ""]
        for row in rows:
            if row.notebook:  # as the learner's own grading command prints it (graded in its edition's language)
                with speaking(row.edition or lang()):  # the language it was graded in
                    lines += [replace(row.grade, path=visible(row.notebook)).text(), ""]
            else:  # a missing exercise (``classroom._missing``): its row's text is the instructor's language
                lines += [t("grade.class.missing", exercise=row.grade.exercise), ""]
        lines += not_graded.lines([p for p in result.problems if p.learner == learner])
    return "\n".join(lines).rstrip("\n") + "\n"


# --- index.html -----------------------------------------------------------------------------------


def summary(result: ClassResult) -> str:
    """One line: learners, notebooks, and how many passed, failed a criterion, timed out, erred, were missing
    or skipped: the notebook counts add up to the notebooks, so none is left out of what to do next."""
    handed = [r for r in result.rows if r.notebook]
    graded = [r for r in handed if r.grade.status == "ok"]
    return t(
        "grade.class.summary",
        learners=len(result.learners),
        notebooks=len(handed),
        passed=sum(r.grade.passed for r in graded),
        failed=sum(not r.grade.passed for r in graded),
        timeouts=_count(handed, "timeout"),
        errors=_count(handed, "error"),
        missing=_count(result.rows, "missing"),
        skipped=not_graded.counted(result.problems),
    )


def page(result: ClassResult) -> str:
    rows = result.rows
    handed = [r for r in rows if r.notebook]
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang()}">',
        '<head><meta charset="utf-8">',
        f"<title>{_e(t('grade.class.title'))}</title>",
        f"<style>{_STYLE}</style></head>",
        "<body>",
        f"<h1>{_e(t('grade.class.title'))}</h1>",
        f"<p>{_e(summary(result))}</p>",
    ]
    if not result.isolated:
        parts.insert(-2, f'<p class="warning"><strong>{_e(unsandboxed_note())}</strong></p>')
    if result.notes:
        parts += [
            f"<h2>{_e(t('grade.class.notes_title'))}</h2>",
            "<ul>" + "".join(f"<li>{_e(note)}</li>" for note in result.notes) + "</ul>",
        ]
    parts += _changed(result.changes)
    for name in sorted({r.grade.exercise for r in handed if r.grade.exercise in EXERCISES}):
        parts += _rates(name, [r for r in handed if r.grade.exercise == name])
    parts += _hints(handed)
    editions = [(visible(learner), _editions(handed, learner)) for learner in result.learners]
    parts += _table(
        t("grade.class.editions_title"), t("grade.class.none"), ("learner", "edition"), [e for e in editions if e[1]]
    )
    failures = [r for r in handed if r.grade.status in ("timeout", "error")]
    parts += _table(
        t("grade.class.failures"),
        t("grade.class.no_failures"),
        ("learner", "notebook", "edition", "status", "message"),
        [
            (
                visible(r.learner),
                visible(r.notebook),
                _editions([r], r.learner),
                t(f"grade.class.status.{r.grade.status}"),
                retold(r.grade.key, r.grade.values, r.grade.error),
            )
            for r in failures
        ],
    )
    parts += _table(
        t("grade.class.missing_title"),
        t("grade.class.none"),
        ("learner", "exercise"),
        [(visible(r.learner), r.grade.exercise) for r in rows if r.grade.status == "missing"],
    )
    parts += _table(
        t("grade.class.skipped_title"),
        t("grade.class.none"),
        ("learner", "file", "message"),
        not_graded.rows(result.problems),
    )
    parts += [
        f'<p class="footer">{_e(footer(result.version, result.timeout))}</p>',
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(parts)


def _changed(changes: tuple[Change, ...] | None) -> list[str]:
    """Whose grade moved since the last run (``class_changes.py``), at most SHOWN of them; the rest counted."""
    if changes is None:
        return [f"<h2>{_e(t('grade.class.changed_title'))}</h2>", f"<p>{_e(t('grade.class.changed_first'))}</p>"]

    def shown(grade: tuple[str, str, str] | None) -> str:
        if grade is None:
            return t("grade.class.changed_absent")
        status, score, most = grade
        said = t(f"grade.class.status.{status}") if status in _STATUSES else status
        return f"{score}/{most} ({said})" if status == "ok" else said

    rows = [(c.learner, c.exercise, shown(c.before), shown(c.after)) for c in changes[:SHOWN]]
    columns = ("learner", "exercise", "before", "after")
    parts = _table(t("grade.class.changed_title"), t("grade.class.changed_none"), columns, rows)
    if len(changes) > SHOWN:
        more = t("grade.class.changed_more", count=len(changes) - SHOWN, previous=PREVIOUS_CSV, current=CSV_FILE)
        parts.append(f'<p class="note">{_e(more)}</p>')
    return parts


_STATUSES = ("ok", "timeout", "error", "missing")


def _editions(rows: Sequence[Row], learner: str) -> str:
    """The editions of the learner's notebooks among ``rows``, Japanese first: a class may mix the two."""
    found = {r.edition for r in rows if r.learner == learner}
    return ", ".join(t(f"grade.class.edition.{e}") for e in ("ja", "en") if e in found)


def footer(version: str, timeout: float) -> str:
    """The grader's version and both time limits: a check stopped by its own limit fails its criterion (the hint
    says so), while "timed out" counts only notebooks stopped as a whole, so the page names both limits."""
    check = min(CHECK_TIMEOUT, timeout)  # as batch.py caps it
    return t("grade.class.footer", version=version, seconds=f"{timeout:g}", check=f"{check:g}")


def _count(rows: Sequence[Row], status: str) -> int:
    return sum(1 for r in rows if r.grade.status == status)


def _e(text: object) -> str:
    # Control and bidi characters shown as escapes too: a learner's name or sample answer with a
    # right-to-left override would read as other text than it holds (Trojan Source). Names come
    # here through visible() already, newlines escaped as in grades.csv: "judy\nPASS" read "judy PASS".
    return html.escape(visible(str(text), lines=True), quote=True)


def _rates(name: str, rows: list[Row]) -> list[str]:
    """The exercise's heading, its bar chart and the criteria's titles under it."""
    titles = [t(key) for key in EXERCISES[name].criteria]
    total = len(rows)
    passed = [
        sum(
            1
            for r in rows
            if r.grade.status == "ok"
            and r.grade.reports
            and len(r.grade.reports[0].checks) >= n
            and r.grade.reports[0].checks[n - 1].passed
        )
        for n in range(1, len(titles) + 1)
    ]
    return [
        f"<h2>{_e(t('grade.class.rates', exercise=name))}</h2>",
        chart(titles, passed, total),
        f'<p class="note">{_e(t("grade.class.rates_note", total=total))}</p>',
        "<ol>" + "".join(f"<li>{_e(title)}</li>" for title in titles) + "</ol>",
    ]


def chart(titles: list[str], passed: list[int], total: int) -> str:
    """A horizontal bar per criterion: its label, the share that passed, and the count; plain SVG."""
    width = _LABEL_W + _BAR_W + 160
    height = _PAD * 2 + _ROW_H * len(titles)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" class="chart">'
    ]
    for i, (title, ok) in enumerate(zip(titles, passed, strict=True)):
        y = _PAD + i * _ROW_H
        percent = round(100 * ok / total) if total else 0
        filled = round(_BAR_W * ok / total) if total else 0
        label = t("grade.criterion", number=i + 1)
        rate = t("grade.class.rate", percent=percent, passed=ok, total=total)
        out += [
            f"<g><title>{_e(label)}: {_e(title)}</title>",
            f'<text x="0" y="{y + _BAR_H - 4}" class="label">{_e(label)}</text>',
            f'<rect x="{_LABEL_W}" y="{y}" width="{_BAR_W}" height="{_BAR_H}" class="track"/>',
            f'<rect x="{_LABEL_W}" y="{y}" width="{filled}" height="{_BAR_H}" class="bar"/>',
            f'<text x="{_LABEL_W + _BAR_W + 8}" y="{y + _BAR_H - 4}" class="value">{_e(rate)}</text></g>',
        ]
    out.append("</svg>")
    return "\n".join(out)


def _hints(rows: list[Row]) -> list[str]:
    """The most common hints, each told in the page's language (``report.retold``) with the shortest answer
    that got it (ties: by learner, notebook), of the page's edition first: a grade kept before grades kept
    their hints' values tells a hint that quotes one as its learner read it, and one learner's edition
    (English, say, whose answer is the shortest) must not word a hint that the rest of a Japanese class
    got in Japanese."""
    seen: Counter = Counter()
    sample: dict[tuple, tuple[Row, str]] = {}
    page = lang()

    def order(row: Row) -> tuple:
        return row.edition != page, len(row.answer), row.learner, row.notebook

    for row in rows:
        if row.grade.status != "ok":
            continue
        for check in (c for r in row.grade.reports for c in r.checks if not c.passed):
            hint = (row.grade.exercise, check.number, check.key)
            seen[hint] += 1
            best = sample.get(hint)
            if best is None or order(row) < order(best[0]):
                sample[hint] = (row, retold(check.key, check.values, check.hint))
    top = sorted(seen, key=lambda h: (-seen[h], h))[:TOP_HINTS]
    body = []
    for hint in top:
        row, text = sample[hint]
        exercise, number, key = hint
        body.append(
            f'<tr><td class="num">{seen[hint]}</td><td class="nw">{_e(exercise)}</td>'
            f'<td class="nw">{_e(t("grade.criterion", number=number))}</td>'
            f"<td>{_e(text)}<br><code>{_e(key)}</code></td>"
            f"<td><details><summary>{_e(t('grade.class.sample', learner=visible(row.learner), notebook=visible(row.notebook)))}</summary>"
            f"<pre>{_e(sample_of(row.answer, text))}</pre></details></td></tr>"
        )
    if not body:
        return [f"<h2>{_e(t('grade.class.hints'))}</h2>", f"<p>{_e(t('grade.class.no_hints'))}</p>"]
    head = "".join(
        f"<th>{_e(t(f'grade.class.col.{c}'))}</th>" for c in ("count", "exercise", "criterion", "hint", "sample")
    )
    return [f"<h2>{_e(t('grade.class.hints'))}</h2>", f"<table><tr>{head}</tr>", *body, "</table>"]


def _table(title: str, empty: str, columns: tuple[str, ...], rows: list[tuple]) -> list[str]:
    parts = [f"<h2>{_e(title)}</h2>"]
    if not rows:
        return parts + [f"<p>{_e(empty)}</p>"]
    head = "".join(f"<th>{_e(t(f'grade.class.col.{c}'))}</th>" for c in columns)
    parts.append(f"<table><tr>{head}</tr>")
    parts += ["<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in rows]
    return parts + ["</table>"]


_STYLE = (
    "body{font-family:sans-serif;margin:2em;max-width:1100px;line-height:1.5}"
    "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;"
    "text-align:left}th,td.nw,td.num{white-space:nowrap}td.num{text-align:right}pre{white-space:pre-wrap;max-width:560px;font-size:85%}"
    ".chart .label,.chart .value{font-size:13px;font-family:sans-serif}.chart .track{fill:#e6e6e6}"
    ".chart .bar{fill:#3a6ea5}.note,.footer{color:#555;font-size:90%}"
)


def unsandboxed_note() -> str:
    """What the page and the command say of a class graded without isolation: "no network" only where the job's
    seccomp filter keeps a process off it on this machine (``syscall_filter.sockets_refused_here``)."""
    return t("grade.class.unsandboxed" if sockets_refused_here() else "grade.class.unsandboxed.network_open")
