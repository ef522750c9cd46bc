"""Japanese prose in a markdown cell, as a reader sees it.

The sources break long Japanese sentences over several lines. Markdown turns such a break into a
space (a "soft line break"), and Japanese puts no spaces between words: JupyterLab and GitHub showed
「…）は さらに進んで」 where the sentence has none. Where both sides of a break are Japanese (inline
markup aside), or the line ends on a clause's punctuation (「返します。ensure_ascii」), the built
notebook joins the lines; every other break (lists, headings, code, tables, a Japanese word beside a
Latin one, where a space is the custom) stays as written.
"""

from __future__ import annotations

import re

# Kana, CJK ideographs, CJK and full-width punctuation: the characters Japanese sets without spaces.
JAPANESE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60]")
# Japanese punctuation that ends a clause: nothing, not even a Latin word, is spaced after it.
CLOSING = set("。、，．）」』】！？：")
# Inline markup a line may open with before its first character (`code`, **bold**, a link).
MARKUP = re.compile(r"(?:\*\*|\*|`|\[)*")
# A line that starts a block of its own (a list item, a heading, a quote, a table row, HTML such as
# </details>).
BLOCK = re.compile(r"(?:[-*+][ \t]|\d+[.)][ \t]|#|>|\||<)")


def joined_soft_breaks(markdown: str) -> str:
    """``markdown`` with each line break between two Japanese characters removed, outside code fences
    and headings."""
    lines: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and lines and _continues(lines[-1], line.lstrip(" \t")):
            lines[-1] += line.lstrip(" \t")  # a list item's indented rest joins its first line too
            continue
        lines.append(line)
    return "\n".join(lines)


def _continues(before: str, line: str) -> bool:
    """Whether ``line`` goes on the sentence ``before`` ends with no space between: both sides Japanese
    (markup such as ``**`` or a backtick aside), or ``before`` ends on a clause's punctuation (。、）)."""
    if not before or not line or before.lstrip().startswith("#") or BLOCK.match(line):
        return False
    if before[-1] in CLOSING:
        return True
    first = MARKUP.sub("", line, count=1)[:1]  # the markup opening the line left out
    return bool(JAPANESE.fullmatch(before[-1]) and first and JAPANESE.fullmatch(first))
