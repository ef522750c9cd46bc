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

__all__ = ["MOST", "limit_field", "read_limit"]

WHOLE = re.compile(r"\d+(?:\.0*)?")  # 6, 6.0: a count; 2.5 is not one
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
    said = re.sub(r"[\s,_]", "", unicodedata.normalize("NFKC", typed))  # 40,000 and ４０ are numbers
    if not WHOLE.fullmatch(said):
        raise ValueError(t("ui.limit.not_whole", label=field.description, got=got))
    digits = said.split(".")[0].lstrip("0") or "0"
    if len(digits) > len(str(MOST)) or int(digits) > MOST:
        raise ValueError(t("ui.limit.too_large", label=field.description, got=got, most=f"{MOST:,}"))
    return int(digits)
