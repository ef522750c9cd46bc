"""A valve's limit typed into the panel (「新しい上限」, the fork form's limits), read as a whole number.

ipywidgets' IntText drops what is not a digit as it is typed, in the browser: a learner's 2.5 reached
the kernel as 25, and nothing here could tell. A plain text field reaches the kernel as typed; this
reads it the way a person writes a count (40,000, ４０, 6 with spaces around it) and names a value it cannot
read. A separator counts only between groups of three digits: 1,5 (one and a half, where a comma is the
decimal point) and 6 7 (two numbers) are no counts, where dropping the separator read them as 15 and 67.
"""

from __future__ import annotations

import re
import unicodedata

import ipywidgets as widgets

from ..text import t

__all__ = ["MOST", "limit_field", "read_limit"]

WHOLE = re.compile(r"(?:\d+|\d{1,3}(?:[,_ ]\d{3})+)(?:\.0*)?")  # 6, 6.0, 40,000: a count; 2.5, 1,5 are not
# Past any run's turns or tokens. Without a bound, a key held down (5,000 nines) reached int(), whose
# own English refusal (past 4,300 digits) was the panel's notice, quoting every digit.
MOST = 10**12
SHOWN = 40  # characters of what was typed that a refusal quotes


def limit_field(description: str, value: int | None = None, **layout: str) -> widgets.Text:
    return widgets.Text(
        value="" if value is None else str(value),
        description=description,
        layout=widgets.Layout(**layout),
        style={"description_width": "initial"},
    )


def read_limit(field: widgets.Text) -> int:
    """The field's whole number; a ValueError naming what was typed when it is none, or too large."""
    typed = field.value.strip()
    got = typed if len(typed) <= SHOWN else typed[: SHOWN - 1] + "…"
    if not typed:  # 「」 is not a number that failed to read: nothing was written
        raise ValueError(t("ui.limit.empty", label=field.description))
    said = unicodedata.normalize("NFKC", typed)  # ４０ and 40 alike
    if not WHOLE.fullmatch(said):
        raise ValueError(t("ui.limit.not_whole", label=field.description, got=got))
    digits = re.sub(r"[,_ ]", "", said.split(".")[0]).lstrip("0") or "0"
    if len(digits) > len(str(MOST)) or int(digits) > MOST:
        raise ValueError(t("ui.limit.too_large", label=field.description, got=got, most=f"{MOST:,}"))
    return int(digits)
