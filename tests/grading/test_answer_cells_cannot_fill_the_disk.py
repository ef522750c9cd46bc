"""Answer cells graded without the sandbox cannot fill the file system that holds their folder.

Without the sandbox a call's folder is on the caller's own file system (the instructor's ``/tmp`` or home);
the sandbox's is in memory, under the memory cap. A cell that wrote without end filled that disk for every
program of the machine: one file past the limit, or many files each below it, or empty files by the
hundred thousand (the file system's inodes). The machine is made with a seccomp filter (``no_user_namespaces.py``).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from harness_lab.grading import folder_use
from harness_lab.grading.namespaces import FILE_LIMIT
from harness_lab.text import speaking, t
from tests.grading import no_user_namespaces

# Writes a file a few MB past the limit (not more: without it, the test's disk takes it all), then tells so.
WRITE = f"""
with open("big.bin", "wb") as _f:
    for _ in range({(FILE_LIMIT >> 20) + 4}):
        _f.write(bytes(1 << 20))
raise RuntimeError("WROTE IT ALL")
"""

# Each below the limit on one file: files of 48 MB until twice the folder's total, in its folder and in its /tmp
MANY_FILES = f"""
import os, tempfile
for _i in range({2 * folder_use.BYTES // (48 << 20) + 1}):
    with open(os.path.join(tempfile.gettempdir() if _i % 2 else ".", f"part{{_i}}.bin"), "wb") as _f:
        for _ in range(48):
            _f.write(os.urandom(1 << 20))
raise RuntimeError("WROTE IT ALL")
"""
# Empty files, more than twice the folder's count, in folders of a thousand
EMPTY_FILES = f"""
import os
for _i in range({2 * folder_use.ENTRIES + 1}):
    if _i % 1000 == 0:
        os.mkdir(f"d{{_i}}")
    os.close(os.open(f"d{{_i - _i % 1000}}/e{{_i}}", os.O_CREAT | os.O_WRONLY, 0o600))
raise RuntimeError("WROTE IT ALL")
"""

pytestmark = no_user_namespaces.NEEDED


def graded(cell: str):
    """A right answer with ``cell`` after it, graded as a normal user without user namespaces."""
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    try:
        return no_user_namespaces.grade(
            folder, no_user_namespaces.with_a_cell(folder, cell), no_user_namespaces.PRELUDE
        )
    finally:
        shutil.rmtree(folder)


def test_an_answer_cell_graded_without_namespaces_writes_no_file_past_the_limit():
    done = graded(WRITE)
    with speaking("en"):
        said = t("grade.file_limit", mb=FILE_LIMIT >> 20)
    # was "RuntimeError: WROTE IT ALL": the whole file written to the caller's disk
    assert "WROTE IT ALL" not in done.stdout, done.stdout
    assert said in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("cell", [MANY_FILES, EMPTY_FILES], ids=["files_below_the_limit", "empty_files"])
def test_answer_cells_graded_without_namespaces_fill_no_more_than_the_sandboxs_folders(cell):
    done = graded(cell)
    with speaking("en"):
        said = t("grade.nb.folder_full", mb=folder_use.BYTES >> 20, entries=folder_use.ENTRIES)
    # was "RuntimeError: WROTE IT ALL": 240 MB (or 16,385 files) on the caller's disk, and no word of why
    assert "WROTE IT ALL" not in done.stdout, done.stdout
    assert said in done.stdout, done.stdout + done.stderr
