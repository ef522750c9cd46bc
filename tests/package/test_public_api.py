"""The package's public surface: complete, sorted, importable, and light (docs/architecture.md: importing harness_lab loads no UI)."""

from __future__ import annotations

import inspect
import subprocess
import sys

import harness_lab


def test_all_is_sorted_and_unique():
    assert harness_lab.__all__ == sorted(set(harness_lab.__all__))


def test_every_exported_name_exists():
    missing = [name for name in harness_lab.__all__ if not hasattr(harness_lab, name)]
    assert missing == []


def test_every_public_attribute_is_exported():
    public = {n for n, v in vars(harness_lab).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert public - set(harness_lab.__all__) == set()


def test_import_is_silent_and_pulls_no_ui():
    code = (
        "import sys, harness_lab; print(sorted(m for m in ('ipywidgets', 'matplotlib', 'IPython') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert done.stderr == ""


def test_what_drives_no_model_never_loads_the_sdk_and_the_lazy_names_still_work():
    # Importing anthropic takes about two seconds: the class command pays it in its grading hosts only.
    code = (
        "import sys, harness_lab as hl, harness_lab.cli, harness_lab.grading.class_command, harness_lab.grading.command\n"
        "print('anthropic' in sys.modules)\n"
        "from harness_lab.grading import check_level1\n"
        "print(hl.Run.__module__, hl.connect.__module__, hl.drain.__module__, check_level1.__module__)\n"
        "print('anthropic' in sys.modules)\n"
        "import harness_lab.grading as g\n"
        "print(hl.loop.Run is hl.Run, g.level1.grade_level1 is g.grade_level1, hasattr(hl, 'nothing_of_that_name'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "False",
        "harness_lab.loop harness_lab.client harness_lab.drain harness_lab.grading.level1",
        "True",
        "True True False",
    ]
    assert done.stderr == ""
