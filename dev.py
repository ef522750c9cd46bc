"""Set up and run harness_lab with nothing but Python 3.11+ and pip.

    python3 dev.py demo   # create .venv if missing, install, run the lesson-6 demo offline
    python3 dev.py test   # create .venv if missing, install with test extras, lint, run every test
    python3 dev.py lint   # only the lint and format checks (ruff)
    python3 dev.py lab    # install JupyterLab too and open the lessons
    python3 dev.py grade  # grade your two exercise notebooks from their answer cells, in a fresh process
    python3 dev.py live   # with ANTHROPIC_API_KEY: the live-Claude smoke test
    python3 dev.py setup  # only create .venv and install with the test tools

Each step prints what it runs; the exit code is the first failure's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
DEMO_PROMPT = "README.md の1行目を読んで、それから今何時か教えて"


# Tests never touch the network: the suites run without the key, so notebooks and tests stay offline
# even on a machine where ANTHROPIC_API_KEY is set (`dev.py live` is the one place that uses it).
# The stored notebook outputs were made in Japanese with the default model, so the learner's own
# language and model choices are left out too: they would change every compared output.
NOT_FOR_TESTS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "HARNESS_LAB_LANG",
    "HARNESS_LAB_MODEL",
    "HARNESS_LAB_WORKBOOK",
)
OFFLINE = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
# A learner's own my_harness.py (next to the notebooks, where Jupyter runs them) would change what the
# lessons print: the tests keep theirs in a folder of their own.
OFFLINE["HARNESS_LAB_WORKBOOK"] = str(ROOT / "build" / "test-workbook" / "my_harness.py")


def sh(*args: str | Path, check: bool = True, env: dict | None = None) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    code = subprocess.call([str(a) for a in args], cwd=ROOT, env=env)
    if check and code:
        sys.exit(code)
    return code


def setup(extras: str = "") -> None:
    if not PY.exists():
        venv.create(VENV, with_pip=True)
    stamp = VENV / f".installed{extras}"
    pyproject = ROOT / "pyproject.toml"
    if not stamp.exists() or stamp.stat().st_mtime < pyproject.stat().st_mtime:
        sh(PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", f".{extras}")
        stamp.touch()


def demo() -> None:
    setup()
    sh(BIN / "harness-lab", "run", DEMO_PROMPT, "--yes")


def lab() -> None:
    setup("[test]")
    # Save widget state with the notebook, so a Stepper still shows its last state after a restart
    # (JupyterLab saves none by default: a reopened panel reads "Error displaying widget"). The venv's
    # own settings overrides apply to every JupyterLab started from it, and to nothing else.
    import json

    overrides = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(overrides.read_text(encoding="utf-8")) if overrides.exists() else {}
    settings.setdefault("@jupyter-widgets/jupyterlab-manager:plugin", {})["saveState"] = True
    overrides.parent.mkdir(parents=True, exist_ok=True)
    overrides.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    sh(BIN / "jupyter", "lab", "notebooks/")


def grade() -> None:
    setup()
    notebooks = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "exercises").glob("*.ipynb"))
    sh(PY, "-P", "-m", "harness_lab.grading", *notebooks)  # -P: nothing imported from the working folder


def live() -> None:
    if not os.environ.get("ANTHROPIC_API_KEY"):
        sys.exit("dev.py live needs ANTHROPIC_API_KEY")
    setup("[test]")
    sh(PY, "-m", "pytest", "-q", "-rs", "tests/live")


LINTED = ("harness_lab", "tests", "benchmarks", "deploy", "dev.py", "exercises/conftest.py")


def lint(install: bool = True) -> int:
    """ruff's lint rules and its formatter, configured in pyproject.toml; the exit code of the first failure."""
    if install:
        setup("[test]")
    return sh(PY, "-m", "ruff", "check", *LINTED, check=False) or sh(
        PY, "-m", "ruff", "format", "--check", *LINTED, check=False
    )


def test() -> None:
    setup("[test,bench]")  # bench: the benchmarks' smoke test runs every contender once
    if lint(install=False):
        print("lint failed: `python3 dev.py lint` shows it; `.venv/bin/ruff format` fixes formatting", flush=True)
        sys.exit(1)
    pytest = (PY, "-m", "pytest", "--color=no", "-q")
    suites = [
        (*pytest, "tests"),
        (
            *pytest,
            "--nbval",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            "notebooks/sanitize.cfg",
            "notebooks",
            "tests/ui/notebooks",
        ),
        (*pytest, "--nbval-lax", "--nbval-current-env", "exercises/solutions"),
    ]
    failed = [s for s in suites if sh(*s, check=False, env=OFFLINE)]
    if failed:
        print(f"{len(failed)} of {len(suites)} test suites failed", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    commands = {
        "demo": demo,
        "test": test,
        "lint": lambda: sys.exit(lint()),
        "lab": lab,
        "grade": grade,
        "live": live,
        "setup": lambda: setup("[test]"),
    }
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python3 dev.py {{{'|'.join(commands)}}}")
    commands[sys.argv[1]]()
