"""The graders' feedback: one line per criterion, then one summary line (lesson 6 exercises).

The printed text is what a notebook's grade cell stores and nbval compares, so it must depend on
nothing but the learner's behaviour: no timings, no ids that change between runs, no addresses.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text import t

__all__ = ["Check", "Report"]


@dataclass(frozen=True)
class Check:
    """The verdict on one criterion. ``hint`` explains a failure; ``warning`` qualifies a pass.

    ``key`` names the catalog entry the hint came from, so a test can tell which hint was given
    whatever the language.
    """

    number: int
    title: str
    passed: bool
    hint: str = ""
    warning: str = ""
    key: str = ""

    @classmethod
    def fail(cls, number: int, title: str, key: str, **values: object) -> "Check":
        """A failed criterion whose hint is the catalog entry ``key``, formatted with ``values``."""
        return cls(number, title, False, t(key, **values), key=key)

    def line(self) -> str:
        if self.passed:
            line = f"✅ {t('grade.criterion', number=self.number)}: {self.title}"
            return f"{line}  ⚠️ {self.warning}" if self.warning else line
        return f"❌ {t('grade.criterion', number=self.number)}: {self.title} — {t('grade.hint')}: {self.hint}"


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
        else:
            lines.append(t("grade.some_passed", score=self.score, total=len(self.checks)))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()
