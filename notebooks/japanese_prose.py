"""Japanese prose in a markdown cell, as a reader sees it.

The sources break long Japanese sentences over several lines. Markdown turns such a break into a
space (a "soft line break"), and Japanese puts no spaces between words: JupyterLab and GitHub showed
「…）は さらに進んで」 where the sentence has none. Where both sides of a break are Japanese, the
built notebook joins the lines; every other break (lists, headings, code, tables, a break beside
Latin text, where a space is right) stays as written.
"""

from __future__ import annotations

import re

# Kana, CJK ideographs, CJK and full-width punctuation: the characters Japanese sets without spaces.
JAPANESE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60]")


def joined_soft_breaks(markdown: str) -> str:
    """``markdown`` with each line break between two Japanese characters removed, outside code fences
    and headings."""
    lines: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and lines and _continues(lines[-1], line):
            lines[-1] += line
            continue
        lines.append(line)
    return "\n".join(lines)


def _continues(before: str, line: str) -> bool:
    """Whether ``line`` goes on the sentence ``before`` ends, both sides Japanese."""
    if not before or not line or before.lstrip().startswith("#"):
        return False
    return bool(JAPANESE.fullmatch(before[-1]) and JAPANESE.fullmatch(line[0]))
