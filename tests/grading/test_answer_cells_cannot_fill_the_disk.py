"""Answer cells graded without the sandbox cannot fill the file system that holds their folder.

Without the sandbox a call's folder is on the caller's own file system (the instructor's ``/tmp`` or home);
the sandbox's is in memory, under the memory cap. A cell that wrote without end filled that disk for every
program of the machine. The machine is made with a seccomp filter (``no_user_namespaces.py``).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

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

pytestmark = no_user_namespaces.NEEDED


def test_an_answer_cell_graded_without_namespaces_writes_no_file_past_the_limit():
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    try:
        done = no_user_namespaces.grade(
            folder, no_user_namespaces.with_a_cell(folder, WRITE), no_user_namespaces.PRELUDE
        )
    finally:
        shutil.rmtree(folder)
    with speaking("en"):
        said = t("grade.file_limit", mb=FILE_LIMIT >> 20)
    # was "RuntimeError: WROTE IT ALL": the whole file written to the caller's disk
    assert "WROTE IT ALL" not in done.stdout, done.stdout
    assert said in done.stdout, done.stdout + done.stderr
