"""The learner-facing string catalog: Japanese by default, English beside it.

``t("key", **values)`` formats one entry in ``lang()``. A notebook's setup cell picks its edition's
language, ``hl.use_language("en")`` or ``("ja")``, for its kernel and every process the kernel starts,
whatever the locale or ``HARNESS_LAB_LANG`` says; otherwise ``HARNESS_LAB_LANG=en`` (``--lang en``)
switches it. The core's messages (stops, tool results, the terminal demo, bad-input errors) live
in ``catalog.py``; the widgets' and graders' strings beside their code (``ui/catalog.py``, ``grading/catalog.py``),
added on import, so each layer owns its words and the two languages still sit side by side.
"""

from __future__ import annotations

import os
import re
import reprlib
import string
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from itertools import pairwise

from .catalog import CORE
from .usage_catalog import USAGE

__all__ = [
    "CATALOG",
    "LANGUAGES",
    "Phrase",
    "add",
    "explicit_language",
    "lang",
    "singular",
    "speaking",
    "t",
    "use_language",
]
LANGUAGES = ("ja", "en")

# key -> (ja, en): the core's entries; each layer adds its own on import (``add``)
CATALOG: dict[str, tuple[str, str]] = {**CORE, **USAGE}


_chosen: str | None = None  # use_language()'s choice: this process's (and its forks') language
# speaking()'s block: over _chosen, so a notebook's setup cell run by the grader (hl.use_language("en"))
# cannot turn the rest of a report, or a line its children describe, into its own edition's language
_spoken: str | None = None


def _checked(code: str) -> str:
    if code not in LANGUAGES:
        raise ValueError(t("usage.language", got=reprlib.repr(code)))
    return code


def use_language(code: str) -> None:
    """Speak ``code`` ("ja" or "en") in this kernel and every process it starts, whatever the environment says."""
    global _chosen
    _chosen = _checked(code)
    os.environ["HARNESS_LAB_LANG"] = code  # a spawned process (not a fork) has only the environment


def explicit_language() -> str | None:
    """The language someone chose: ``speaking``'s in its block, else ``use_language``'s, else
    ``HARNESS_LAB_LANG``'s; None when nobody did."""
    asked = os.environ.get("HARNESS_LAB_LANG", "").lower()
    return _spoken or _chosen or next((code for code in LANGUAGES if asked.startswith(code)), None)


def lang() -> str:
    """The active language: the one chosen (``explicit_language``), Japanese when none was."""
    return explicit_language() or "ja"


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """``t`` speaks ``code`` in the block and its forks, the environment untouched (a report on an English
    notebook), whatever ``use_language`` says within it (the learner's cells a grader runs call it)."""
    global _spoken
    before, _spoken = _spoken, _checked(code)
    try:
        yield
    finally:
        _spoken = before


def t(key: str, **values: object) -> str:
    """The catalog entry ``key`` in the active language, formatted with ``values``.

    An ``error`` value set right before the entry's own punctuation loses its final full stop there
    (``_ends_before_punctuation``).
    """
    ja, en = CATALOG[key]
    template = en if lang() == "en" else ja
    if _QUOTED in values and _ends_before_punctuation(template):
        values[_QUOTED] = _without_full_stop(values[_QUOTED])
    return _COUNTING.format(template, **values)


class _Counting(string.Formatter):
    """English counts its things: a field's spec names what the value counts, in the plural, and one of
    them is singular ("{rounds:tool turns}" reads "1 tool turn", "3 tool turns"). Japanese has no plural,
    so its entries keep the bare field ("{rounds} 回")."""

    def format_field(self, value: object, format_spec: str) -> str:
        if not _NOUNS.fullmatch(format_spec):  # none, or a number's own spec ("{seconds:.1f}")
            return format(value, format_spec)
        count = format(value)
        return f"{count} {singular(format_spec) if count == '1' else format_spec}"


_NOUNS = re.compile(r"[A-Za-z_]+(?: [A-Za-z_]+)*")


def singular(things: str) -> str:
    """The last word of a plural noun phrase in the singular: "more tries" -> "more try"."""
    return things[:-3] + "y" if things.endswith("ies") else things.removesuffix("s")


_COUNTING = _Counting()


# An error's text is quoted as it came (an API 400 word for word, since learners search for it), and
# many such texts end a sentence of their own: "...blocks must define tools." set before the entry's
# own "。" or "." read "tools.。" or "tools..". Only that last full stop goes, and only where the entry
# punctuates right after it; an ellipsis ("...") stays, as cut text must show it was cut.
_QUOTED = "error"
_FULL_STOPS = (".", "。")
_PUNCTUATION = frozenset("。.、,;:；，：")


@cache
def _ends_before_punctuation(template: str) -> bool:
    """Does punctuation follow ``{error}`` in ``template``?"""
    parts = list(string.Formatter().parse(template))
    return any(
        name == _QUOTED and not spec and not conversion and after[:1] in _PUNCTUATION
        for (_, name, spec, conversion), (after, _, _, _) in pairwise(parts)
    )


def _without_full_stop(value: object) -> object:
    text = format(value)  # what format() would put there: str() of an exception or a Phrase
    if text.endswith(_FULL_STOPS) and not text.endswith(".."):
        return text[:-1]
    return value


def add(entries: dict[str, tuple[str, str]]) -> None:
    """Add a layer's entries; a key defined twice is a bug, caught when the module loads."""
    clash = sorted(CATALOG.keys() & entries.keys())
    if clash:
        raise ValueError(f"catalog keys defined twice: {', '.join(clash)}")
    CATALOG.update(entries)


class Phrase:
    """A catalog entry read when it is shown, so it follows a language switched after import."""

    def __init__(self, key: str, **values: object) -> None:
        self.key, self.values = key, values

    def __str__(self) -> str:
        return t(self.key, **self.values)

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.key)
