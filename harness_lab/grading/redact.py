"""What a learner's code wrote into a grade, made safe for the report and the terminal (issue 26, item 3).

A verdict carries learner text: the first line of an exception, a value shown in a hint. Learner
code that reached a secret could carry it out that way (``RuntimeError('KEY=' + key)``): the
instructor's API key or a classmate's answer in ``feedback/<learner>.txt``. The sandbox keeps both
out of reach; this is the wall for grading without it (``--unsandboxed``, or no sandbox on the
machine). In the sandbox it stands down (``Redactor.for_launch``): a cut there could only answer a
learner's guesses. Every text of a grade is cleaned:

- any run of ``WINDOW`` characters or more found in a value of the caller's environment (values of
  ``SHORTEST`` characters or more, whole), in a value named like a secret (``…KEY``, ``…TOKEN``, …) in the
  environment of any process of the caller's user, or in a classmate's notebook becomes ``[REDACTED]``, but
  for the characters that also lie in a run the learner's own notebook holds, or the course's own
  text (``course_text``: the catalog, whose hints quote code every solution holds, such as
  ``POLICY.get(name, DEFAULT_TIER)``, which a classmate's answer holding it cut out of the hint; and
  Python's words an error is told in, such as ``PermissionError`` and ``Permission denied``);
- the same for a secret spelled differently: a run of ``WINDOW`` letters and digits of a secret, read
  forwards or backwards, whatever the case and whatever else lies between them (a key cut into
  chunks joined by ``|``, upper-cased or reversed). Encoding it (base64, say) still gets through:
  this wall catches careless and lazy leaks; the sandbox keeps the key out of reach;
- an Anthropic credential by its shape (``sk-ant-`` and what follows it), wherever it was found. With no
  user namespace and no Landlock, a cell reads what its user may: the environment of every process of
  that user (an instructor's Jupyter kernel's key, which the grading command's own environment never
  held), and files (a ``.env``, an ``export`` in ``~/.bashrc``);
- control characters (escape sequences, carriage returns, bidi overrides) are shown as escapes like
  ``\\x1b``, so no text can restyle, hide or rewrite the instructor's terminal.
"""

from __future__ import annotations

import builtins
import errno
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..scrub import REDACTED
from ..terminal import visible
from ..text import CATALOG, singular
from .report import Check, Kept

if TYPE_CHECKING:
    from .isolation import Launch
    from .notebook import NotebookGrade

__all__ = ["Redactor", "course_text", "own_text"]

WINDOW = 12  # characters a leaked run must have to count (shorter runs are common words and paths)
SHORTEST = 8  # environment values shorter than this are not secrets worth hiding (LANG=C.UTF-8, USER=root)
LONGEST = 2000  # characters of a learner's text a grade keeps (a 20,000-character hint once stalled a class)
# Anthropic's keys and tokens (sk-ant-api03-…, sk-ant-admin01-…, sk-ant-oat01-…), one with its end cut off too
_CREDENTIAL = re.compile(r"sk-ant-[A-Za-z0-9_-]{8,}")
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL", re.IGNORECASE)


def own_text(data: bytes) -> str:
    """A notebook's own text, which its grade may quote: the file, and its cells' sources as written."""
    text = data.decode("utf-8", "replace")
    try:
        cells = json.loads(text)["cells"]
        return "\0".join([text, *("".join(c.get("source", "")) for c in cells if isinstance(c, dict))])
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return text


def _cut(text: str, one: bool) -> str:
    """A catalog entry cut at its placeholders, the noun an English count names kept ("{rounds:tool turns}"
    reads "\\0 tool turns", or with ``one`` "\\0 tool turn", as ``text.t`` writes it): the course's words."""
    return re.sub(
        r"\{[^{}:]*(?::([^{}]*))?\}", lambda m: "\0" + (f" {singular(m[1]) if one else m[1]}" if m[1] else ""), text
    )


def course_text() -> str:
    """The course's own text, which no grade hides: every catalog entry loaded, in both languages, cut at
    its placeholders (what fills one is the learner's, so no run reaches across it); and Python's words
    an error line is made of, its builtins' names as they head one and the system's error messages (a
    classmate's answer that raised PermissionError once cut the name out of everyone's errors)."""
    catalog = dict.fromkeys(_cut(text, one) for entry in CATALOG.values() for text in entry for one in (False, True))
    python = [*(f" {name}: " for name in dir(builtins)), *map(os.strerror, errno.errorcode)]
    return "\0".join([*catalog, *python])


class Redactor:
    """Cuts the caller's secrets and other files' content out of learner text (see the module docstring)."""

    def __init__(self, secrets: Iterable[str] = (), others: Iterable[str] = (), credentials: bool = False) -> None:
        self.secrets = sorted({s for s in secrets if len(s) >= SHORTEST}, key=len, reverse=True)
        self.protected = "\0".join([*self.secrets, *others])
        spelled = [_letters(s) for s in self.secrets]
        self.spelled = "\0".join([*spelled, *(s[::-1] for s in spelled)])
        self.credentials = credentials  # cut what reads as an Anthropic credential, wherever it came from
        # read once: the catalogs are loaded by now
        self.course = course_text() if self.protected or credentials else ""

    @classmethod
    def from_environment(cls, others: Iterable[str] = ()) -> Redactor:
        return cls([*os.environ.values(), *_named_secrets()], others, credentials=True)

    @classmethod
    def for_launch(cls, launch: Launch | None, others: Callable[[], Iterable[str]]) -> Redactor:
        """No secrets to cut where the sandbox kept learner code from every one of them: there a cut
        would only tell a learner which of their own guesses matched a secret (an oracle), or let
        one learner's pasted text blank out the hints of the whole class. Control characters are
        escaped either way."""
        if launch is not None and launch.sandboxed:
            return cls()
        return cls.from_environment(others())

    def clean(self, text: str, own: str = "") -> str:
        if len(text) > LONGEST:  # nobody reads more of a hint, and the search below grows with it
            text = text[:LONGEST] + "…"
        return visible(self._redacted(text, own), lines=True)

    def _redacted(self, text: str, own: str) -> str:
        if not self.protected and not self.credentials:  # nothing to cut (the sandbox): no search either
            return text
        own = f"{own}\0{self.course}"  # the course's words are every learner's own
        hidden = [False] * len(text)
        for secret in self.secrets:  # whole values, however short their runs
            start = text.find(secret)
            while start >= 0:
                if secret not in own:
                    hidden[start : start + len(secret)] = [True] * len(secret)
                start = text.find(secret, start + 1)
        # The learner's own notebook may hold megabytes (a notebook may be 8 MB), and a search through
        # it for each of a hint's 2,000 windows took half a minute: it is searched only for the windows
        # that decide something, those found in a protected text and those covering one of them.
        leaked, shared = [False] * len(text), [False] * len(text)
        elsewhere = []
        for start in range(len(text) - WINDOW + 1):
            window = text[start : start + WINDOW]
            if window in self.protected:
                cover = shared if window in own else leaked
                cover[start : start + WINDOW] = [True] * WINDOW
            else:
                elsewhere.append(start)
        for start in elsewhere:  # a run of the learner's own keeps what it covers of a leaked one
            if any(leaked[start : start + WINDOW]) and text[start : start + WINDOW] in own:
                shared[start : start + WINDOW] = [True] * WINDOW
        hidden = [h or (leak and not mine) for h, leak, mine in zip(hidden, leaked, shared, strict=True)]
        self._spelled_out(text, own, hidden)
        for found in _CREDENTIAL.finditer(text) if self.credentials else ():
            if found.group() not in own:
                hidden[found.start() : found.end()] = [True] * (found.end() - found.start())
        if not any(hidden):
            return text
        out, previous = [], False
        for char, cut in zip(text, hidden, strict=True):
            if not cut:
                out.append(char)
            elif not previous:
                out.append(REDACTED)
            previous = cut
        return "".join(out)

    def _spelled_out(self, text: str, own: str, hidden: list[bool]) -> None:
        """Marks in ``hidden`` each letter or digit of a secret's run found with its case and what lies
        between its characters ignored, unless the learner's own notebook holds that run too."""
        places = [i for i, c in enumerate(text) if c.isalnum()]
        letters, mine = "".join(text[i].lower() for i in places), None
        for start in range(len(letters) - WINDOW + 1):
            window = letters[start : start + WINDOW]
            if window not in self.spelled:
                continue
            if mine is None:  # the notebook's letters, read only once a window needs them
                mine = _letters(own)
            if window not in mine:
                for i in places[start : start + WINDOW]:
                    hidden[i] = True

    def grade(self, grade: NotebookGrade, own: str = "") -> NotebookGrade:
        """``grade`` with every text it carries cleaned, its hints' and error's values too."""
        reports = tuple(replace(r, checks=tuple(self._check(c, own) for c in r.checks)) for r in grade.reports)
        notes = tuple(self.clean(note, own) for note in grade.notes)
        error, values = self._told(grade.error, grade.values, own)
        return replace(grade, reports=reports, error=error, notes=notes, values=values)

    def _check(self, check: Check, own: str) -> Check:
        hint, values = self._told(check.hint, check.values, own)
        return replace(check, hint=hint, warning=self.clean(check.warning, own), values=values)

    def _told(self, said: str, values: tuple[tuple[str, Kept], ...], own: str) -> tuple[str, tuple]:
        """(``said`` cleaned, its values cleaned one by one); no values where the text lost more to the cuts than
        its values did (a secret spread over two values), so a report tells the cleaned text as it is."""
        cleaned = tuple((name, self.clean(v, own) if isinstance(v, str) else v) for name, v in values)
        text = self.clean(said, own)
        cut = sum(v.count(REDACTED) for _, v in cleaned if isinstance(v, str))
        return text, cleaned if text.count(REDACTED) <= cut else ()


def _named_secrets() -> list[str]:
    """The values named like secrets in the environment of every process of this one's user (Linux): what the
    learner code it runs as that user may read where no user namespace hides them. Run as root, the learner
    code is a user of its own, which reads no one else's: other users' secrets are left unread."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            if not entry.isdigit() or os.stat(f"/proc/{entry}").st_uid != os.geteuid():
                continue
            with open(f"/proc/{entry}/environ", "rb") as f:
                data = f.read(1 << 20)
        except (OSError, ValueError):  # no process, or not ours to read
            continue
        for name, _, value in (item.partition(b"=") for item in data.split(b"\0")):
            if _SECRET_NAME.search(name.decode("latin-1")):
                found.append(value.decode("utf-8", "surrogateescape"))
    return found


def _letters(text: str) -> str:
    """``text``'s letters and digits, lower-cased: a secret as it reads whatever joins or cases it."""
    return "".join(c.lower() for c in text if c.isalnum())
