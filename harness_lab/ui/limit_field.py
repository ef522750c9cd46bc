"""A valve's limit typed into the panel (「新しい上限」, the fork form's limits), read as a whole number.

ipywidgets' IntText drops what is not a digit as it is typed, in the browser: a learner's 2.5 reached
the kernel as 25, and nothing here could tell. A plain text field reaches the kernel as typed; this
reads it the way a person writes a count (40,000, ４０, 6 with spaces) and names a value it cannot read.
"""

from __future__ import annotations

import re
import unicodedata

import ipywidgets as widgets

from ..text import t

__all__ = ["limit_field", "read_limit"]

WHOLE = re.compile(r"\d+(?:\.0*)?")  # 6, 6.0: a count; 2.5 is not one
# Digits a limit may have: a budget of 10**18 tokens is no limit, and int() itself refuses a string of
# thousands of digits in Python's own words, which would reach the learner as the panel's notice.
MAX_DIGITS = 18


def limit_field(description: str, value: int | None = None, **layout: str) -> widgets.Text:
    return widgets.Text(
        value="" if value is None else str(value),
        description=description,
        layout=widgets.Layout(**layout),
        style={"description_width": "initial"},
    )


def read_limit(field: widgets.Text) -> int:
    """The field's whole number; a ValueError naming what was typed when it is none."""
    typed = field.value
    said = re.sub(r"[\s,_]", "", unicodedata.normalize("NFKC", typed))  # 40,000 and ４０ are numbers
    if not WHOLE.fullmatch(said):
        raise ValueError(t("ui.limit.not_whole", label=field.description, got=typed.strip()))
    digits = said.split(".")[0].lstrip("0") or "0"  # 0006 is 6
    if len(digits) > MAX_DIGITS:
        raise ValueError(t("ui.limit.too_large", label=field.description, digits=len(digits), most=MAX_DIGITS))
    return int(digits)
