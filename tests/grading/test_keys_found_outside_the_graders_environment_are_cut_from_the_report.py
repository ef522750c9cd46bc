"""Keys learner code finds outside the grading command's environment are cut from the report (grade-class).

Graded ``--unsandboxed`` by a normal user where the kernel gives it no user namespace and has no Landlock, an
answer cell reads what its user may: the environment of every process of that user, and files. The grading
command's redaction cut only the values of its own environment, so a key held by another process of the
instructor's (a Jupyter kernel started with it) or written in a file (an ``export`` in a shell's startup
file) went whole into the learner's feedback file, the gradebook and the page, where the command ran without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.grading import no_user_namespaces

pytestmark = no_user_namespaces.NEEDED

ROOT = Path(__file__).resolve().parents[2]
KERNELS_KEY = "sk-ant-api03-KernelsOwnKey0123456789abcdefghijklmnopqrstuvwxyzAB-CD_EF"
FILES_KEY = "sk-ant-api03-WrittenInAFile9876543210zyxwvutsrqponmlkjihgfedcbaAA"
# Finds the kernel's key in the environments it may read, and the one in the file, then raises with the first
# whole, cut and reversed (the prefix left out), and the second whole
HUNT = """
import os
found = ""
for pid in os.listdir("/proc"):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            items = f.read().split(b"\\0")
        if b"KERNEL_OF=the-test" in items:  # not another test's process of the same user
            found = next(i for i in items if i.startswith(b"ANTHROPIC_API_KEY=")).split(b"=", 1)[1].decode()
    except OSError:
        pass
with open(RC_PATH) as f:
    written = f.read().split("=", 1)[1].strip()
raise RuntimeError(f"KERNEL {found} REVERSED {found[7:][::-1]} FILE {written}")
"""


def test_a_key_another_process_or_a_file_of_the_graders_holds_never_reaches_the_report(open_folder):
    rc = open_folder / "instructor.bashrc"
    rc.write_text(f"export ANTHROPIC_API_KEY={FILES_KEY}\n")
    rc.chmod(0o644)
    subs = open_folder / "subs"
    (subs / "mal").mkdir(parents=True)
    for path in (subs, subs / "mal"):
        path.chmod(0o755)
    no_user_namespaces.with_a_cell(subs / "mal", HUNT.replace("RC_PATH", repr(str(rc))))
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    # the instructor's kernel, of the grading user, started with the key; the grading command runs without it
    sleep = [sys.executable, "-c", "import time; time.sleep(600)"]
    kernel = subprocess.Popen(sleep, env={"ANTHROPIC_API_KEY": KERNELS_KEY, "KERNEL_OF": "the-test"}, **nobody)
    try:
        out = open_folder / "out"
        command = [sys.executable, "-P", "-m", "harness_lab.cli", "grade-class", str(subs), "--out", str(out)]
        command += ["--unsandboxed", "--lang", "en"]
        machine = no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("ENOSYS")
        script = machine + f"import subprocess, sys; sys.exit(subprocess.run({command!r}).returncode)"
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(open_folder)}
        done = subprocess.run(
            [sys.executable, "-P", "-c", script],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            cwd=open_folder,
            **nobody,
        )
    finally:
        kernel.kill()
        kernel.wait()
    feedback = (out / "feedback" / "mal.txt").read_text(encoding="utf-8")
    # found, and cut (of the reversed one, its letters and digits: the _ and - between them are left)
    assert "RuntimeError: KERNEL [REDACTED] REVERSED [REDACTED]" in feedback, (done, feedback)
    assert " FILE [REDACTED]" in feedback
    report = [feedback, *((out / name).read_text(encoding="utf-8-sig") for name in ("grades.csv", "index.html"))]
    runs = {key[start : start + 12] for key in (KERNELS_KEY, FILES_KEY) for start in range(7, len(key) - 11)}
    # was the three whole in each: the cell found them all, and the command's own environment held neither
    assert [[run for run in runs if run in text or run[::-1] in text] for text in report] == [[], [], []]
