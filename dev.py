"""Set up and run harness_lab with nothing but Python 3.11+ and pip.

    python3 dev.py demo   # create .venv if missing, install, run the lesson-6 demo offline
    python3 dev.py test   # create .venv if missing, install with test extras, lint, run every test
    python3 dev.py test harness_lab/loop.py   # only the tests of what you changed (CONTRIBUTING.md's table)
    python3 dev.py lint   # only the lint, format and type checks (ruff, mypy)
    python3 dev.py quick  # lint, then the tests that start no kernel, browser, hub or grading host
    python3 dev.py lab    # install JupyterLab too and open the course (lessons and exercises)
    python3 dev.py grade  # grade your two exercise notebooks from their answer cells, in a fresh process
    python3 dev.py grade --lang en   # the English edition's (exercises/en/); HARNESS_LAB_LANG=en does the same
    python3 dev.py live   # with ANTHROPIC_API_KEY: the live-Claude smoke test
    python3 dev.py setup  # only create .venv and install with the test tools

Each step prints what it runs; the exit code is the first failure's (2 for an unknown command).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
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
# pytest keeps the test modules it rewrote for its assertions as byte-code (__pycache__, ignored by
# git); where the environment asks for none, every test process rewrites them again: about five
# seconds of each worker's start on this suite.
OFFLINE.pop("PYTHONDONTWRITEBYTECODE", None)


def sh(*args: str | Path, check: bool = True, env: dict | None = None, cwd: Path = ROOT) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    code = subprocess.call([str(a) for a in args], cwd=cwd, env=env)
    if check and code:
        sys.exit(code)
    return code


def setup(extras: str = "") -> None:
    if not PY.exists():
        # Without pip for now: ensurepip would take five seconds to install a pip that uv installs
        # again with everything else (``install``); a venv without pip also needs no python3-venv.
        venv.create(VENV, with_pip=False)
    if not installed(extras):
        install(f".{extras}")
        (VENV / f".installed{extras}").touch()


def installed(extras: str) -> bool:
    """Whether an install since pyproject.toml last changed had at least these extras: after `dev.py
    test` (``[test,bench]``), `lint` and `quick` (``[test]``) install nothing again."""

    def named(text: str) -> set[str]:
        return set(text.strip("[]").split(",")) - {""}

    changed = (ROOT / "pyproject.toml").stat().st_mtime
    return any(
        named(extras) <= named(stamp.name.removeprefix(".installed")) and stamp.stat().st_mtime >= changed
        for stamp in VENV.glob(".installed*")
    )


# Installed by JupyterLab's event schemas (jsonschema[format-nongpl]) only to check the "iri" string
# formats, which nothing here uses, yet importing jsonschema then compiles 38 grammars: 1.5 CPU-s in
# every process that reads a notebook (pytest and its workers, nbval, nbconvert, each Jupyter
# server), about 30 CPU-s of a test run. jsonschema skips the format checks it cannot import.
LEFT_OUT = ("rfc3987-syntax",)
QUIET = ("-q", "--disable-pip-version-check")  # pip's options wherever dev.py runs it


def install(target: str) -> None:
    """Install ``target`` (editable) into the venv, without ``LEFT_OUT``: with uv where it can be had, else with pip.

    pip takes about 95 s for the test tools on a 2-core machine (resolving, then byte-compiling
    jupyterlab, jupyterhub and playwright one file at a time); uv, fetched into the venv by pip in
    two seconds, installs the same packages and compiles them on every core in about 25 s. Byte-code
    is compiled at install time because the tests start many fresh processes that would otherwise
    each compile the SDK again when PYTHONDONTWRITEBYTECODE is set. pip itself is installed too: the
    lessons' ``%pip`` cells run it in the venv.
    """
    uv = fetch_uv()
    if uv:
        excluded = VENV / "left-out.txt"
        excluded.write_text("".join(f"{name}\n" for name in LEFT_OUT), encoding="utf-8")
        uv_install = (uv, "pip", "install", "-q", "--python", PY, "--compile-bytecode", "--excludes", excluded)
        if sh(*uv_install, "pip", "-e", target, check=False) == 0:
            return
        print("uv could not install the packages; pip installs them instead", flush=True)
    venv_pip()
    sh(PY, "-m", "pip", "install", *QUIET, "-e", target)
    sh(PY, "-m", "pip", "uninstall", *QUIET, "-y", *LEFT_OUT, check=False)


def fetch_uv() -> Path | None:
    """uv in the venv, put there by the pip running this script (pip 22.3+ has --python), else by the venv's own."""
    uv = BIN / "uv"
    if uv.exists() or sh(sys.executable, "-m", "pip", "--python", PY, "install", *QUIET, "uv", check=False) == 0:
        return uv
    venv_pip()
    return uv if sh(PY, "-m", "pip", "install", *QUIET, "uv", check=False) == 0 else None


def venv_pip() -> None:
    """pip in the venv, which is made without it, for what uv could not do."""
    if subprocess.call([str(PY), "-m", "pip", "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        sh(PY, "-m", "ensurepip")


def demo() -> None:
    setup()
    sh(BIN / "harness-lab", "run", DEMO_PROMPT, "--yes")


# What `python3 dev.py lab` serves; tests/ui/test_browser.py starts its JupyterLab with the same.
# Widget state is saved with the notebook, so a Stepper still shows its last state after a restart
# (JupyterLab saves none by default: a reopened panel reads "Error displaying widget").
# Code cells wrap: a piece's TODO instruction runs to 200 columns, and its end sat off to the right of
# a laptop screen (JupyterLab's default keeps each line on one line, behind a sideways scroll).
LAB_SETTINGS = {
    "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True},
    # Widget messages go to the kernel's main shell, handled in the order they were sent: over subshells
    # (JupyterLab's default), a click could be handled before the reason typed just before it
    # (harness_lab/ui/home_thread.py).
    "@jupyterlab/apputils-extension:kernels-settings": {"commsOverSubshells": "disabled"},
    "@jupyterlab/notebook-extension:tracker": {"codeCellConfig": {"lineNumbers": False, "lineWrap": True}},
}
# Hidden from the file browser: the exercises' solutions, the tests' right answers, and Jupyter's own defaults.
LAB_HIDDEN = ("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", "*.egg-info", "solutions", "answers_*.py")
# Saving a reopened notebook keeps the panels it shows (harness_lab/ui/saved_state.py says why).
LAB_SAVE_HOOK = "harness_lab.ui.saved_state.keep_widget_state"
# ... and a reopened notebook is not marked changed by restoring them (the plugin's file says how).
LAB_EXTENSIONS = ROOT / "harness_lab" / "ui" / "labextension"


def lab_arguments(root: Path) -> list[str]:
    """The server options: the course root (lessons and exercises side by side, so a lesson's link
    to an exercise opens it), solutions hidden, the pre-save hook that keeps saved panels, and the
    plugin that restores them without marking the notebook changed."""
    return [
        f"--ServerApp.root_dir={root}",
        f"--ContentsManager.pre_save_hook={LAB_SAVE_HOOK}",
        f"--LabApp.extra_labextensions_path={LAB_EXTENSIONS}",
        *(f"--ContentsManager.hide_globs={pattern}" for pattern in LAB_HIDDEN),
    ]


def lab_environment(env: dict[str, str]) -> dict[str, str]:
    """``env`` for the server and the kernels it starts: each kernel runs harness_lab/kernel_start.py
    first, so a cell run after a restart, before the setup cells, names the cell to run."""
    return {**env, "PYTHONSTARTUP": str(ROOT / "harness_lab" / "kernel_start.py")}


def lab() -> None:
    setup("[test]")
    # The venv's own settings overrides apply to every JupyterLab started from it, and to nothing else.
    import json

    overrides = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(overrides.read_text(encoding="utf-8")) if overrides.exists() else {}
    for plugin, values in LAB_SETTINGS.items():
        settings.setdefault(plugin, {}).update(values)
    overrides.parent.mkdir(parents=True, exist_ok=True)
    overrides.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    sh(*lab_command(), env=lab_environment(dict(os.environ)))


def lab_command() -> list[str | Path]:
    """``jupyter lab`` with ``lab_arguments``; run as root (a container, a fresh cloud machine) Jupyter
    refuses to start without --allow-root, and the course is served the same either way."""
    as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [BIN / "jupyter", "lab", *lab_arguments(ROOT), *as_root]


# Where each edition's exercises are: the English learner works in exercises/en/.
EXERCISES = {"ja": ROOT / "exercises", "en": ROOT / "exercises" / "en"}


def grade(options: list[str]) -> None:
    """Grade one edition's exercises: ``--lang en`` asks for the English ones (``exercises/en/``), and so
    does ``HARNESS_LAB_LANG=en`` when no ``--lang`` is given, as it switches the rest of the course."""
    flag, _, asked = "=".join(options).partition("=")  # --lang en and --lang=en read alike
    if options and (flag != "--lang" or asked not in EXERCISES):
        print(f"usage: python3 dev.py grade [--lang {{{'|'.join(EXERCISES)}}}]", file=sys.stderr)
        sys.exit(2)
    language = asked or ("en" if os.environ.get("HARNESS_LAB_LANG", "").lower().startswith("en") else "ja")
    setup()
    notebooks = sorted(str(p.relative_to(ROOT)) for p in EXERCISES[language].glob("*.ipynb"))
    feedback = ("--lang", asked) if asked else ()  # the report in the language asked for, whatever the shell says
    sh(PY, "-P", "-m", "harness_lab.grading", *notebooks, *feedback)  # -P: nothing imported from the working folder


def live() -> None:
    if not os.environ.get("ANTHROPIC_API_KEY"):
        sys.exit(
            "dev.py live sends requests to the real API and needs a key: `export ANTHROPIC_API_KEY=...`, then run"
            " it again (every other dev.py command runs offline, without one)"
        )
    setup("[test]")
    sh(PY, "-m", "pytest", *QUIET_SUMMING_UP, "tests/live")


LINTED = ("harness_lab", "tests", "benchmarks", "deploy", "dev.py", "exercises/conftest.py", "notebooks")


# Each check, and what mends what it reports: its own output says what is wrong, not which command of
# this checkout fixes it. All of them run, so one pass shows every kind of problem.
MENDS = {
    "ruff check": "`{bin}/ruff check --fix` mends what it marks [*]; the rest by hand at the lines it names",
    "ruff format": "`{bin}/ruff format` rewrites the files it names",
    "mypy": "mend the lines it names (pyproject.toml's [tool.mypy] says how strict each package is)",
}


def failed_check(name: str, code: int) -> int:
    if code:
        print(f"{name} failed: {MENDS[name].format(bin=BIN.relative_to(ROOT).as_posix())}", flush=True)
    return code


def ruff() -> int:
    checked = failed_check("ruff check", sh(PY, "-m", "ruff", "check", *LINTED, check=False))
    formatted = failed_check("ruff format", sh(PY, "-m", "ruff", "format", "--check", *LINTED, check=False))
    return checked or formatted


def lint(install: bool = True) -> int:
    """ruff's lint rules and its formatter, then mypy over harness_lab (its files and strictness are in
    pyproject.toml; it caches in .mypy_cache, so a second run takes seconds); each runs, whatever the others
    found, and says what mends its failure; the exit code is the first failure's."""
    if install:
        setup("[test]")
    linted = ruff()
    typed = failed_check("mypy", sh(PY, "-m", "mypy", check=False))
    return linted or typed


# The strict notebook suite replays the lessons from a copy of the project at a longer, unlike path
# and under Tokyo's clock: CI clones deeper than a developer's checkout, and instructors run at
# +09:00. Once an OS error text carrying the checkout path reached the emulated model and shifted a
# stored token count, so nbval passed here and failed in CI; replaying elsewhere catches that class.
REPLAY = ROOT / "build" / "replay" / "a checkout" / "placed much deeper than the one that built the notebooks"
REPLAY_TZ = "Asia/Tokyo"
LEFT_BEHIND = (
    ".venv",
    ".git",
    "build",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ipynb_checkpoints",
    "*.egg-info",
)


def replay_copy(to: Path = REPLAY) -> Path:
    """A fresh copy of the project at ``to`` (the notebooks and what they read)."""
    import shutil

    if to.exists():
        shutil.rmtree(to)
    shutil.copytree(ROOT, to, ignore=shutil.ignore_patterns(*LEFT_BEHIND))
    return to


# Two pytest workers more than there are cores: much of the suite waits on purpose (time limits
# running out, autosave, a hub starting, a stopped grading host overrunning), and the extra workers run
# tests on the cores the waiting ones leave idle. The suite is otherwise bound by CPU. Measured on 2
# cores: on the slower machine of earlier sessions the unit suite took 458 s with 2 workers, 384-423 s
# with 3 and 371-391 s with 4 (whole runs 7 min 26-30 s with 3, 7 min 20-40 s with 4); on this
# session's faster one, five runs each, partly alternating: 247-257 s with 3 (mean 251 s; the cores
# 92 % busy, sampled each second), 236-251 s with 4 (mean 242 s; 97 % busy). (With 4, the browser
# test once missed an autosave: the typing had begun during a save, which JupyterLab then marked
# clean; the course's lab plugin now mends that.)
# Files go to workers in the order tests/conftest.py gives (--no-loadscope-reorder): xdist's own (the
# files with the most tests first), but for a few long files of one test, which came last and ran
# alone. Measured on the unit suite, alternating: 350 and 357 s against 360 and 362 s. (Starting all
# the slowest files first measured no faster: their waits then overlap and nothing fills them.)
WORKERS = str((os.cpu_count() or 1) + 2)
ORDER = ("-n", WORKERS, "--dist", "loadfile", "--no-loadscope-reorder")
# Quiet, but the summary at the end names every failed test and error (-rfE, pytest's default, which
# any -r replaces) and says why tests were skipped (-rs: one line per reason, the tests that share it
# counted). With -rs alone, a run of 4,500 tests ended "5 failed" and named none of them.
QUIET_SUMMING_UP = ("-q", "-rfEs")


def suites() -> list[tuple[Path, dict, tuple]]:
    """The test suites as (working folder, environment, pytest arguments), in the order they run.

    The unit suite and the notebook suites run on every core (pytest-xdist, ``WORKERS``); ``--dist loadfile``
    keeps a file's tests, and a notebook's cells, in one worker, so a module's shared execution of a
    notebook happens once and nbval's cells run in order on one kernel.
    """
    pytest = ("-m", "pytest", "--color=no", *QUIET_SUMMING_UP, *ORDER)
    # Both editions: the English lessons (notebooks/en) run in the same suite as the Japanese ones
    # (pytest collects a folder named twice only once). The exercises' solutions of both editions run
    # under strict nbval inside the unit suite (tests/grading/test_notebooks.py, in a kernel whose
    # environment names the other language), so no weaker suite of their own runs them again.
    english = [p for p in ("notebooks/en",) if (ROOT / p).is_dir()]
    strict = ("--nbval", "--nbval-current-env", "--nbval-sanitize-with", "notebooks/sanitize.cfg")
    return [
        (ROOT, OFFLINE, (*pytest, "tests")),
        (REPLAY, {**OFFLINE, "TZ": REPLAY_TZ}, (*pytest, *strict, "notebooks", *english, "tests/ui/notebooks")),
    ]


def quick() -> None:
    """The working loop: lint and types, then every test but the whole-system ones (marker ``system``,
    tests/conftest.py). CI runs them all (``test``); README.md gives the times measured, which depend on load."""
    started = time.monotonic()
    pytest = ("-m", "pytest", *QUIET_SUMMING_UP, *ORDER, "-m", "not system", "tests")
    code = lint() or sh(PY, *pytest, check=False, env=OFFLINE)
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    print(f"dev.py quick: {'failed' if code else 'passed'} in {minutes} min {seconds} s", flush=True)
    sys.exit(code)


# What to run after changing a file: the first pattern (fnmatch: ``*`` crosses folders) that the file's
# path matches names the tests. CONTRIBUTING.md's table lists the same rows (tests/package/test_dev.py
# holds the two alike); `python3 dev.py test PATH...` runs them, a path under tests/ as itself.
DOCS_TESTS = "tests/course/test_doc_paths.py tests/course/test_doc_examples.py tests/course/test_english_pages.py"
TESTS_FOR = (
    (
        "harness_lab/*catalog*.py",
        "tests/package/test_catalog.py tests/course/test_glossary.py tests/package/test_english_counts.py",
    ),
    ("harness_lab/emulator/*", "tests/emulator"),
    ("harness_lab/lessons/*", "tests/lessons tests/package"),
    ("harness_lab/grading/*", "tests/grading tests/reliability"),
    ("harness_lab/ui/*", "tests/ui"),
    ("harness_lab/*", "tests/harness tests/reliability tests/package"),
    ("notebooks/src/*", "tests/course tests/lessons/test_sitting.py"),
    ("exercises/src/*", "tests/course tests/lessons/test_sitting.py"),
    ("deploy/jupyterhub/*", "tests/hub"),
    ("docs/glossary.md", "tests/course/test_glossary.py " + DOCS_TESTS),
    ("README.md", DOCS_TESTS),
    ("CONTRIBUTING.md", DOCS_TESTS),
    ("docs/*", DOCS_TESTS),
    ("tests/*", ""),
)


def tests_for(changed: str) -> list[str] | None:
    """The tests to run after changing ``changed`` (a path from the project's root or from here; a test's
    node id, ``tests/x.py::name``, runs that test); None for a path no row names."""
    import fnmatch

    file, _, test = changed.partition("::")
    path = Path(file).resolve()
    if not path.is_relative_to(ROOT):
        return None
    name = path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else "")
    for pattern, tests in TESTS_FOR:
        if fnmatch.fnmatch(name, pattern):  # pytest runs from the root: a test is named from there
            return tests.split() or [name.rstrip("/") + (f"::{test}" if test else "")]
    return None


def order_for(tests: list[str]) -> tuple[str, ...]:
    """The whole run's workers for as many test files as would keep them busy, else one process: each
    worker imports the SDK, hypothesis and the test modules again before its first test (about 5 CPU-s
    each, measured on the catalog row's 3,551 tests: 11.5 CPU-s in one process, 21.7 with two workers)."""
    files = sum(
        len(list(path.rglob("test_*.py"))) if path.is_dir() else 1
        for path in (ROOT / test.partition("::")[0] for test in tests)
    )
    return ORDER if files >= 2 * int(WORKERS) else ("-n", "0")


def test_some(changed: list[str]) -> None:
    """`dev.py test PATH...`: the tests of what changed, in the environment and order of the whole run;
    no lint (`dev.py lint` takes seconds), and CI still runs everything."""
    chosen: list[str] = []
    for path in changed:
        tests = tests_for(path)
        if tests is None:
            print(
                f"dev.py test: no row of CONTRIBUTING.md's table names {path}: name a test file or folder",
                file=sys.stderr,
            )
            sys.exit(2)
        chosen += [test for test in tests if test not in chosen]
    setup("[test]")
    started = time.monotonic()
    code = sh(PY, "-m", "pytest", *QUIET_SUMMING_UP, *order_for(chosen), *chosen, check=False, env=OFFLINE)
    print(f"dev.py test: {'failed' if code else 'passed'} in {round(time.monotonic() - started)} s", flush=True)
    sys.exit(code)


def test(changed: list[str] | None = None) -> None:
    if changed:
        test_some(changed)
    started = time.monotonic()
    setup("[test,bench]")  # bench: the benchmarks' smoke test runs every contender once
    if ruff():
        sys.exit(1)
    # mypy reads the whole anthropic package on a cold cache (half a minute): it runs beside the tests
    # and its verdict counts like theirs.
    print("+", PY, "-m mypy (beside the tests; its report follows them)", flush=True)
    mypy = subprocess.Popen(
        [str(PY), "-m", "mypy"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    replay_copy()
    failed = 0
    for cwd, env, args in suites():
        print(f"+ (in {cwd.relative_to(ROOT) if cwd != ROOT else '.'})", flush=True)
        failed += bool(sh(PY, *args, check=False, env=env, cwd=cwd))
    report, _ = mypy.communicate()
    print(report, end="", flush=True)
    failed += bool(failed_check("mypy", mypy.returncode))
    total = len(suites()) + 1
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    print(
        f"dev.py test: {total - failed} of {total} checks passed (mypy and {total - 1} test suites) in {minutes} min {seconds} s",
        flush=True,
    )
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    commands = {
        "demo": demo,
        "test": lambda: test(sys.argv[2:]),
        "lint": lambda: sys.exit(lint()),
        "quick": quick,
        "lab": lab,
        "grade": lambda: grade(sys.argv[2:]),
        "live": live,
        "setup": lambda: setup("[test]"),
    }
    usage = f"usage: python3 dev.py {{{'|'.join(commands)}}}"
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(f"{usage}\n\n{__doc__.strip()}")
        sys.exit(0)
    named = sys.argv[1] if len(sys.argv) > 1 else ""
    if named not in commands or (len(sys.argv) > 2 and named not in ("grade", "test")):  # only these take more
        print(f"{usage}\n(python3 dev.py --help says what each does)", file=sys.stderr)
        sys.exit(2)  # a usage error, as argparse and the harness-lab command exit
    commands[sys.argv[1]]()
