"""The instructor's commands in README.md and the class guide (docs/classroom.md, docs/en/classroom.md) name
the programs where the set-up put them.

docs/classroom.md §2 makes one venv, ``/opt/harness_lab-venv``; nothing puts its ``bin`` on ``PATH``.
A command written as bare ``harness-lab`` or as ``.venv/bin/harness-lab`` (a developer's checkout,
which a class server does not have) was "command not found" for an instructor following the page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ("harness-lab", "jupyterhub", "pip")


def shell_lines(markdown: str) -> list[str]:
    blocks = re.findall(r"^```(?:bash|sh)\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL)
    return [line.split("#", 1)[0] for block in blocks for line in block.splitlines()]


def class_venv() -> str:
    page = (ROOT / "docs" / "classroom.md").read_text(encoding="utf-8")
    (made,) = set(re.findall(r"python3 -m venv (\S+)", page))
    return made


def commands(line: str) -> list[str]:
    """The programs a shell line runs: each part's first word after ``sudo`` and ``NAME=value`` words."""
    found = []
    for part in re.split(r"&&|\|\||[;|]|\$\(", line):
        words = [w for w in part.split() if w != "sudo" and not re.fullmatch(r"\w+=\S*", w)]
        found += words[:1]
    return found


def misnamed(lines: list[str]) -> list[str]:
    """The commands that run one of ``PROGRAMS`` from anywhere but the class venv."""
    venv = class_venv()
    ran = [command for line in lines for command in commands(line)]
    return [c for c in ran if c.rsplit("/", 1)[-1] in PROGRAMS and c != f"{venv}/bin/{c.rsplit('/', 1)[-1]}"]


@pytest.mark.parametrize("guide", ["classroom.md", "en/classroom.md"])
def test_the_class_guide_runs_the_programs_of_the_venv_it_made(guide):
    assert class_venv() == "/opt/harness_lab-venv"
    assert misnamed(shell_lines((ROOT / "docs" / guide).read_text(encoding="utf-8"))) == []


def test_the_readme_for_instructors_runs_them_from_the_same_venv():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## For instructors", 1)[1].split("\n## ", 1)[0]
    assert "harness-lab grade-class" in section
    assert misnamed(shell_lines(section)) == []


def accounts_named(lines: list[str]) -> set[str]:
    """The Unix accounts the hub's command lets in by name (HARNESS_HUB_ADMINS, HARNESS_HUB_USERS)."""
    named = re.findall(r"HARNESS_HUB_(?:ADMINS|USERS)=(\S+)", "\n".join(lines))
    return {name for value in named for name in value.split(",") if name}


def accounts_made(lines: list[str]) -> set[str]:
    return {words[-1] for line in lines if (words := line.split("&&")[0].split()) and words[0] == "useradd"}


@pytest.mark.parametrize("guide", ["classroom.md", "en/classroom.md"])
def test_the_set_up_makes_every_account_the_hub_is_started_with(guide):
    # §2 started the hub with HARNESS_HUB_ADMINS=teacher and made only alice: PAM has no teacher, and the
    # hub's first lines were a KeyError traceback ("User teacher does not exist on the system").
    page = (ROOT / "docs" / guide).read_text(encoding="utf-8")
    set_up = shell_lines(page.split("\n## 2.", 1)[1].split("\n## ", 1)[0])
    assert accounts_named(set_up) == {"teacher"}
    assert accounts_named(set_up) <= accounts_made(set_up)
