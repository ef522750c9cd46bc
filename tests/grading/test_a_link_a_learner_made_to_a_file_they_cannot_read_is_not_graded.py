"""``harness-lab grade`` on a learner's notebook that is a link (or lies in a folder that is one) they made.

A learner cannot read the solutions, but may make a link to them: ``level1_tiered_policy.ipynb`` in their own
folder, pointing at the instructor's ``exercises/solutions/level1_tiered_policy.ipynb``. The command followed
every link on the way to a path named on the command line, read the solution with the instructor's rights and
graded it 3/3 under the learner's file name. It now follows only the links the caller or root made, and refuses
(exit 2, a usage line naming the link) a path through anyone else's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the usage lines join the catalog)
from harness_lab.grading.command import not_a_notebook
from harness_lab.text import CATALOG, speaking

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "exercises" / "solutions" / "level1_tiered_policy.ipynb"

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="links and their owners, as Linux has them"),
    pytest.mark.skipif(os.geteuid() != 0, reason="a link of another user's is made as that user (nobody), by root"),
]


def _as_nobody(*argv: str) -> None:
    subprocess.run(argv, check=True, user=65534, group=65534, extra_groups=[])


@pytest.fixture
def handed_in(open_folder):
    """(a learner's folder, the instructor's copy of the solution, which only the instructor may read)."""
    solution = open_folder / "instructor" / SOLUTION.name
    solution.parent.mkdir(mode=0o700)
    shutil.copy(SOLUTION, solution)
    learner = open_folder / "alice"
    learner.mkdir()
    os.chown(learner, 65534, 65534)
    return learner, solution


def _grade(path: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(path)]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(path.parent)}
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def test_a_learners_link_to_the_solution_they_cannot_read_is_refused_not_graded(handed_in):
    learner, solution = handed_in
    link = learner / SOLUTION.name
    _as_nobody("ln", "-s", str(solution), str(link))
    with pytest.raises(subprocess.CalledProcessError):  # the learner cannot read what they link to
        _as_nobody("cat", str(link))
    done = _grade(link)
    # was exit 0 and "[PASS] All 3 criteria are met": the solution, graded as alice's
    assert done.returncode == 2, done
    assert "criteria" not in done.stdout
    refusal = CATALOG["grade.nb.usage.others_link"][1].format(path=link, link=link)
    assert refusal in done.stderr


def test_a_learners_folder_that_is_a_link_to_the_solutions_is_refused_too(handed_in):
    learner, solution = handed_in
    _as_nobody("ln", "-s", str(solution.parent), str(learner / "work"))
    with speaking("en"):
        said = not_a_notebook(str(learner / "work" / SOLUTION.name))
    assert said == CATALOG["grade.nb.usage.others_link"][1].format(
        path=learner / "work" / SOLUTION.name, link=learner / "work"
    )


def test_links_the_caller_made_are_still_followed(handed_in, monkeypatch):
    learner, solution = handed_in
    (learner.parent / "mine").symlink_to(solution.parent)  # the instructor's own link, and one through it
    (learner.parent / "graded.ipynb").symlink_to(Path("mine") / ".." / "instructor" / SOLUTION.name)
    monkeypatch.chdir(learner.parent)
    assert not_a_notebook("graded.ipynb") is None
    assert not_a_notebook(str(learner.parent / "mine" / SOLUTION.name)) is None
