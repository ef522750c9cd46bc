"""What a translation keeps of the Japanese: each cell's outline and the numbers it states.

Stamping (``editions.py``) records that a translator read the Japanese cell; it cannot say whether the
English says the same. Three things can be compared without reading either language. A markdown cell's
**outline**: its headings and their levels, its table rows, list items, folded answers (``<details>``)
and code fences; a dropped step or a missing paragraph with a heading changes it. And the **numbers** a
cell or a catalog entry states ("12ターン" / "12 turns", "30万トークン" / "300,000 tokens", 三つ / three,
2倍 / double): a limit, a count or a step number that drifted changes them. Zero and one are left out:
English says them as "nothing", "a", "once" or "first" as often as with a numeral, and Japanese as 一度
or 最初. Both are compared as sets, so a sentence that says a number twice in one language and once in
the other is no drift. And a markdown cell's **links**, in order: each leads to the same file or page in
both editions (the English edition of a notebook, from an English one), so a navigation line or a figure
that points elsewhere, or an English page that sends its reader to a Japanese notebook, is drift too.
And the **names** a markdown cell puts in code (`next_step`, `stop_reason`, `hl.run()`): the learner types
them, so a function, a variable or a stop reason renamed, added or dropped in English is drift (code
spans with arguments or words in them may be translated, and are left out). And the **terms** a markdown
cell writes in Latin script (System V, IPC, POSIX, `inotify`, OWASP): Japanese prose names a technical thing
as it is, so its translation names it too, and a Japanese sentence the English never got usually takes one
with it (the class guide's sentence on the IPC an unsandboxed grade refuses did). And the **models** a
cell names, in its prose or its code's comments (`claude-sonnet-5`, Opus 4.6): a model id's version is part
of a name, so neither the numbers nor the terms see `claude-sonnet-4-6` where the Japanese says
`claude-sonnet-5`, and a learner who copies the English id asks another model.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
import unicodedata
from pathlib import Path

from notebooks.editions import edition_of, read_source, shown

WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
ORDINALS = ["third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"]
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
ENGLISH = {
    **{w: str(n) for n, w in enumerate(WORDS, start=2)},
    **{w: str(n) for n, w in enumerate(ORDINALS, start=3)},
    **{f"{w}fold": str(n) for n, w in enumerate(WORDS, start=2)},
    **{m: str(n) for n, m in enumerate(MONTHS, start=1) if m != "may"},  # "may" is a verb far more often
    "twice": "2",
    "double": "2",
    "square": "2",  # 二乗 / 2乗
    "thrice": "3",
}
# "second" as in 2つ目 / 2回目, not the second half (後半) nor a unit of time (2 seconds).
ENGLISH_WORD = re.compile(rf"\b({'|'.join(ENGLISH)}|second(?! half))\b", re.IGNORECASE)
KANJI = dict(zip("二三四五六七八九十", map(str, range(2, 11))))
# A kanji numeral counts only before a counter: 三つ, 二度, 四章, 二乗 (not 十分 "enough", 一方 "one side").
KANJI_COUNT = re.compile(r"(?<![一二三四五六七八九十])([二三四五六七八九十])(?=[つ度回人行番周枚個件種通章倍乗重])")
# A numeral on its own, not part of a name: python3, claude-sonnet-5 and UTF-8 are names in both editions
# (Q3 and 問3 are the same question, though).
NUMERAL = re.compile(r"(?<![A-PR-Za-z_\d.])(?<![A-Za-z]-)\d+(?:[,_]\d{3})*(?:\.\d+)?")
LARGE = {"万": 10_000, "million": 1_000_000}
SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*(万|million)")


def numbers(text: str, language: str) -> set[str]:
    """The numbers ``text`` states, as digits (``"300000"``, ``"3"``, ``"1.25"``), 0 and 1 aside."""
    text = unicodedata.normalize("NFKC", text)  # full-width digits are digits
    text = re.sub(r"https?://\S+", "", text)
    text = SCALED.sub(lambda m: _digits(float(m.group(1)) * LARGE[m.group(2)]), text)
    text = re.sub(r"\b(?:a|per) million\b", "1000000", text)
    text = re.sub(r"(\d+)\s*割", lambda m: str(int(m.group(1)) * 10), text)  # 1割 is a tenth
    found = {_digits(float(n.replace(",", "").replace("_", ""))) for n in NUMERAL.findall(text)}
    if language == "en":
        found |= {ENGLISH.get(m.group(0).lower(), "2") for m in ENGLISH_WORD.finditer(text)}
    else:
        found |= {KANJI[k] for k in KANJI_COUNT.findall(text)}
    return found - {"0", "1"}


def _digits(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def outline(markdown: str) -> dict[str, object]:
    """What a reader sees of a markdown cell's shape, its words aside."""
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.DOTALL | re.MULTILINE)
    return {
        "headings": [len(h) for h in re.findall(r"^(#+) ", prose, re.MULTILINE)],
        "table rows": len(re.findall(r"^\|", prose, re.MULTILINE)),
        "list items": len(re.findall(r"^\s*(?:[-*]|\d+\.) ", prose, re.MULTILINE)),
        "folded answers": prose.count("<details>"),
        "code fences": markdown.count("```"),
    }


def words_of_code(source: str) -> str:
    """A code cell's comments and string literals: what a learner reads in it."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return ""
    kinds = {tokenize.COMMENT, tokenize.STRING} | {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    return "\n".join(tok.string for tok in tokens if tok.type in kinds)


# A link in markdown, its target up to the first space or parenthesis: [text](target) and ![figure](target).
LINK = re.compile(r"\]\(([^)\s]+)")


def built_folder(source: Path) -> Path:
    """The folder a source's notebook is built into: a relative link is read from there
    (``notebooks/src/en/NN.py`` -> ``notebooks/en``, ``exercises/src/x.py`` -> ``exercises``)."""
    english = edition_of(source) == "en"
    home = source.parent.parent.parent if english else source.parent.parent
    return home / "en" if english else home


def links(markdown: str, source: Path) -> list[tuple[str, str]]:
    """Where each link of a markdown cell leads, as seen from its built notebook: a file as its path from the
    repository (its Japanese edition's, for an English one, so both editions' links compare), a web address
    as it is. An English link that leads to a Japanese notebook is marked so: every notebook has an English edition."""
    found = []
    for target in LINK.findall(markdown):
        address, _, anchor = target.partition("#")
        if re.match(r"[a-z]+:", address) or not address:
            found.append((target, target))
            continue
        path = Path(os.path.normpath(built_folder(source) / address))
        if edition_of(source) == "en" and path.parent.name == "en":
            path = path.parent.parent / path.name  # the English edition of the file the Japanese links to
        elif edition_of(source) == "en" and path.suffix == ".ipynb":  # every notebook has an English edition
            path = path.with_name(f"{path.name} (the Japanese edition)")  # never the Japanese's
        found.append((target, path.as_posix() + (f"#{anchor}" if anchor else "")))
    return found


def links_differ(ja: list[tuple[str, str]], en: list[tuple[str, str]]) -> list[str]:
    """The first link that leads elsewhere in English, as each edition writes it."""
    if len(ja) != len(en):
        return [f"links {len(en)} where the Japanese has {len(ja)}"]
    for number, ((written_ja, ja_leads), (written_en, en_leads)) in enumerate(zip(ja, en), start=1):
        if ja_leads != en_leads:
            japanese = " (the Japanese edition)" if en_leads.endswith("(the Japanese edition)") else ""
            return [f"link {number} ({written_en}) leads elsewhere{japanese} than the Japanese's ({written_ja})"]
    return []


# A code span that is a name alone: letters, digits, "_" and ".", perhaps with "()"; never with words or arguments.
NAME_SPAN = re.compile(r"(?<!`)`([A-Za-z_][A-Za-z0-9_.]*(?:\(\))?)`(?!`)")


def names(markdown: str) -> set[str]:
    """The names a markdown cell writes as inline code, its fenced code blocks aside."""
    return set(NAME_SPAN.findall(re.sub(r"^```.*?^```", "", markdown, flags=re.DOTALL | re.MULTILINE)))


def _one_side(what: str, ja: set[str], en: set[str]) -> str:
    """'' when both editions hold the same ``what``, or which of them only one edition holds."""
    if ja == en:
        return ""
    parts = [f"{', '.join(sorted(ja - en))} only in the Japanese" if ja - en else ""]
    parts.append(f"{', '.join(sorted(en - ja))} only in the English" if en - ja else "")
    return f"the {what} differ: " + "; ".join(p for p in parts if p)


def names_differ(japanese: str, english: str) -> str:
    """'' when both cells put the same names in code, or which names only one side does."""
    return _one_side("names in code", names(japanese), names(english))


# A word in Latin script, code spans included; fenced code, links' targets and web addresses are compared elsewhere.
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def terms(markdown: str) -> set[str]:
    """The Latin-script words a text names, lower-cased."""
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.DOTALL | re.MULTILINE)
    prose = re.sub(r"\]\([^)]*\)|https?://\S+", "]", prose)
    return {word.lower() for word in LATIN_WORD.findall(prose)}


def terms_missing(japanese: str, english: str) -> str:
    """'' when the English names every term the Japanese does (a plural counts), or which ones it leaves out."""
    named = terms(english)
    missing = sorted(w for w in terms(japanese) if not {w, f"{w}s", f"{w}es", w.removesuffix("s")} & named)
    return f"the English names none of {', '.join(missing)}" if missing else ""


# A model as an id (claude-opus-4-6, claude-haiku-4-5-20251001) or by its name (Opus 4.6): a family and a version.
MODEL = re.compile(
    r"\bclaude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d))?(?:-\d{8})?\b"
    r"|\b(Opus|Sonnet|Haiku|Fable|Mythos) (\d+)(?:\.(\d+))?",
    re.IGNORECASE,
)


def models(text: str) -> set[str]:
    """The models ``text`` names, each as family and version (``claude-opus-4-6`` and Opus 4.6 are ``opus 4.6``)."""
    found = set()
    for match in MODEL.finditer(text):
        family, major, minor = match.group(1, 2, 3) if match.group(1) else match.group(4, 5, 6)
        found.add(f"{family.lower()} {major}" + (f".{minor}" if minor else ""))
    return found


def models_differ(japanese: str, english: str) -> str:
    """'' when both name the same models, or which models only one side names."""
    return _one_side("models named", models(japanese), models(english))


def prose_drift(ja_path: Path, en_path: Path) -> list[str]:
    """One line per English cell whose outline, links, names, terms, numbers or models are not its Japanese twin's."""
    ja, en = read_source(ja_path), read_source(en_path)
    drift = []
    for number, (a, b) in enumerate(zip(ja.cells, en.cells), start=1):
        where = f"{shown(en_path)} cell {number}"
        if a.cell_type == "markdown":
            shape_ja, shape_en = outline(a.source), outline(b.source)
            drift += [
                f"{where}: {kind} {shape_en[kind]} where the Japanese has {shape_ja[kind]}"
                for kind in shape_ja
                if shape_ja[kind] != shape_en[kind]
            ]
            drift += [f"{where}: {said}" for said in links_differ(links(a.source, ja_path), links(b.source, en_path))]
            drift += [f"{where}: {said}" for said in [names_differ(a.source, b.source)] if said]
            drift += [f"{where}: {said}" for said in [terms_missing(a.source, b.source)] if said]
            text_ja, text_en = a.source, b.source
        else:
            text_ja, text_en = words_of_code(a.source), words_of_code(b.source)
        drift += [
            f"{where}: {said}" for said in (numbers_differ(text_ja, text_en), models_differ(text_ja, text_en)) if said
        ]
    return drift


def numbers_differ(japanese: str, english: str) -> str:
    """'' when both state the same numbers, or which numbers only one side states."""
    ja, en = numbers(japanese, "ja"), numbers(english, "en")
    if ja == en:
        return ""
    parts = [f"{', '.join(sorted(ja - en))} only in the Japanese" if ja - en else ""]
    parts.append(f"{', '.join(sorted(en - ja))} only in the English" if en - ja else "")
    return "the numbers differ: " + "; ".join(p for p in parts if p)
