"""Answer cells graded without the sandbox write nothing outside their own folder and read no one's files.

Where the kernel gives a normal user no user namespace, ``harness-lab grade`` runs the answer cells as its
caller: before Landlock's filesystem rules they could plant a line in the instructor's ``~/.bashrc`` or a
start-up file of IPython (run later as the instructor), rewrite a classmate's notebook beside theirs, and
read the instructor's solutions to hand them in as their own. Landlock has no rule for a file's mode, owner
or extended attributes, so the cells could also open the whole home to every account of the machine, for a
learner's own login to plant what runs later. The machine is made with a seccomp filter
(``no_user_namespaces.py``); the grading runs as a normal user (``nobody`` when the tests run as root).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces
from tests.process_ids import landlock_abi

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "exercises" / "level1_tiered_policy.ipynb"
SOLUTION = ROOT / "exercises" / "solutions" / "level1_tiered_policy.ipynb"
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
# Appends a line to each planted path it can; then hands in the solution's answer cells as its own.
PLANT = """
for _path in PLANTED:
    try:
        with open(_path, "a") as _f:
            _f.write("echo planted by an answer cell\\n")
    except OSError:
        pass
"""
# Opens what it can to every account: by name, and through a descriptor Landlock lets it open for reading.
OPEN_TO_ALL = """
import os as _os
for _path in TARGETS:
    try:
        _os.chmod(_path, 0o777)
    except OSError:
        pass
    try:
        _fd = _os.open(_path, _os.O_RDONLY)
        _os.fchmod(_fd, 0o777)
        _os.close(_fd)
    except OSError:
        pass
    try:
        _os.setxattr(_path, "user.planted", b"1")
    except OSError:
        pass
"""
COPY = """
import json as _json
try:
    with open(SOLUTION, encoding="utf-8") as _f:
        _cells = _json.load(_f)["cells"]
except OSError:
    _cells = []
for _cell in _cells:
    if "answer" in _cell["metadata"].get("tags", []):
        exec("".join(_cell["source"]), globals())
"""

pytestmark = [
    *no_user_namespaces.NEEDED,
    pytest.mark.skipif(landlock_abi() < 1, reason="the kernel has no Landlock"),
]


def test_answer_cells_graded_without_namespaces_write_nothing_outside_their_folder(open_folder):
    startup = open_folder / ".ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    for made in (open_folder / ".ipython", startup.parent, startup):
        made.chmod(0o777)
    classmate = open_folder / "classmate.ipynb"
    planted = [open_folder / ".bashrc", startup / "00-planted.py", classmate]
    classmate.write_text("{}", encoding="utf-8")
    classmate.chmod(0o666)
    notebook = no_user_namespaces.with_a_cell(open_folder, PLANT.replace("PLANTED", repr([str(p) for p in planted])))
    done = no_user_namespaces.grade(open_folder, notebook, no_user_namespaces.PRELUDE)
    # were all three: .bashrc and the start-up file made (run later as the instructor), the classmate's notebook changed
    assert [p.name for p in planted if p.exists() and "planted" in p.read_text()] == []
    assert (done.returncode, ALL_PASSED in done.stdout) == (0, True), done.stdout + done.stderr


def test_answer_cells_graded_without_namespaces_cannot_hand_in_the_instructors_solution(open_folder):
    notebook = no_user_namespaces.with_a_cell(open_folder, COPY.replace("SOLUTION", repr(str(SOLUTION))), STARTER)
    done = no_user_namespaces.grade(open_folder, notebook, no_user_namespaces.PRELUDE)
    # was 3 of 3: the solution read from the instructor's checkout and run as the answer cells
    assert ALL_PASSED not in done.stdout, done.stdout
    assert done.returncode == 1, done.stdout + done.stderr


def test_answer_cells_graded_without_namespaces_open_none_of_the_instructors_files_to_others(open_folder):
    home = open_folder / "home"
    home.mkdir(mode=0o700)
    bashrc, package = home / ".bashrc", home / "site-packages"
    bashrc.write_text("# the instructor's\n", encoding="utf-8")
    package.mkdir()
    for path in (bashrc, package, home):
        path.chmod(0o700 if path.is_dir() else 0o600)
    if os.geteuid() == 0:  # the instructor is the user the cells run as
        for path in (home, bashrc, package):
            os.chown(path, 65534, 65534)
    modes = {path: path.stat().st_mode for path in (home, bashrc, package)}
    targets = [str(p) for p in (home, bashrc, package)]
    notebook = no_user_namespaces.with_a_cell(open_folder, OPEN_TO_ALL.replace("TARGETS", repr(targets)))
    done = no_user_namespaces.grade(open_folder, notebook, no_user_namespaces.PRELUDE)
    # were 0o777 each: any account could then write the instructor's .bashrc, or a .pth in their packages
    assert {path.name: oct(path.stat().st_mode) for path in modes} == {p.name: oct(m) for p, m in modes.items()}
    assert (done.returncode, ALL_PASSED in done.stdout) == (0, True), done.stdout + done.stderr
