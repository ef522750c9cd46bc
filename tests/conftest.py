"""Settings every test shares."""

from __future__ import annotations

import gc
import os
import signal
from collections import Counter
from pathlib import Path

import pytest

import dev
import tests.examples  # noqa: F401 (loads the hypothesis profile HARNESS_LAB_EXAMPLES names, before any test module)
from tests.kernel_forks import server


def pytest_configure(config) -> None:
    # `pytest` run by hand runs offline in the course's defaults, as `dev.py` runs it, whatever the shell
    # says (a learner's HARNESS_LAB_LANG=en failed the panel tests; a key would make notebooks live),
    # before any kernel or worker copies the environment. Only tests/live keeps the key.
    live = bool(config.args) and all(
        Path(arg.split("::")[0]).resolve().is_relative_to(TESTS / "live") for arg in config.args
    )
    for name in dev.NOT_FOR_TESTS:
        if name != "HARNESS_LAB_WORKBOOK" and not (live and name.startswith("ANTHROPIC_")):
            os.environ.pop(name, None)
    os.environ.setdefault("HARNESS_LAB_WORKBOOK", dev.OFFLINE["HARNESS_LAB_WORKBOOK"])
    # Kernels start warm, forked from one process that has imported the SDK (tests/kernel_forks);
    # started once per run, by the process xdist's workers and nbval's subprocesses inherit it from.
    # HARNESS_LAB_TEST_KERNELS=off starts every kernel the ordinary way.
    config._kernel_forker = server.start()
    # A shell that starts a job in the background without job control (a CI runner's `cmd &`)
    # starts it with SIGINT ignored, and Python then keeps it ignored. Some tests press a real Ctrl-C,
    # in this process or in a command they start: they need the handler a terminal gives. A Python
    # handler goes back to the default on exec, so the commands started from here get theirs too.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_unconfigure(config) -> None:
    server.stop(getattr(config, "_kernel_forker", None))


# Tests of the whole system: each of these files starts Jupyter kernels, a browser, a hub, nbval in
# a subprocess or grading hosts, and together they take about four fifths of the suite's time. They
# carry the marker ``system``: `python3 dev.py quick` leaves them out, `python3 dev.py test` and CI
# run everything.
WHOLE_SYSTEM = (
    "ui/test_browser.py",
    "ui/test_browser_course_pages.py",
    "ui/test_browser_comparisons.py",
    "grading/test_hostile_class.py",
    "grading/test_classroom.py",
    "grading/test_class_editions.py",
    "grading/test_class_command_runs.py",
    "grading/test_hostile_processes.py",
    "grading/test_notebooks.py",
    "hub/test_jupyterhub.py",
    "grading/test_planted_modules.py",
    "lessons/test_course_chain.py",
    "grading/test_notebook_grading.py",
    "grading/test_class_record.py",
    "grading/test_isolation.py",
    "ui/test_nbconvert.py",
    "lessons/test_notebook_01.py",
    "lessons/test_notebook_02.py",
    "lessons/test_notebook_03.py",
    "lessons/test_notebook_04.py",
    "lessons/test_notebook_05.py",
    "lessons/test_cells_run_out_of_order.py",
    "lessons/test_cells_run_twice.py",
    "reliability/test_notebook_kernel.py",
    "benchmarks/test_benchmarks_smoke.py",
)
# Files of one or two tests that run for long, mostly waiting (a hub starting, a notebook run twice):
# xdist hands out files with the most tests first, so these came last, and one worker ran them alone
# while the others had nothing left (the last 30-40 s of a run at half the machine). They go first;
# every other file keeps xdist's order (dev.py passes --no-loadscope-reorder, so this order holds).
FEW_BUT_LONG = (
    "hub/test_jupyterhub.py",
    "grading/test_jupyter_kernels_out_of_reach.py",
    "course/test_lesson_code_on_other_models.py",
    "grading/test_planted_modules.py",
    "course/test_exercise_grading_commands.py",
    "lessons/test_notebook_05.py",
    "ui/test_nbconvert.py",
)
TESTS = Path(__file__).resolve().parent
# Files that share one session fixture too costly to start twice (tests/ui/conftest.py's JupyterLab
# server and Chromium): under --dist loadfile they go to one worker as one unit, the first file's.
SHARED_UNIT = {
    "ui/test_browser_course_pages.py": "ui/test_browser.py",
    "ui/test_browser_comparisons.py": "ui/test_browser.py",
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedUnits(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            for name, unit in SHARED_UNIT.items():
                if scope.endswith(f"tests/{name}"):
                    return scope[: -len(name)] + unit
            return scope

    return SharedUnits(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def where(item: pytest.Item) -> str | None:
        try:
            return item.path.relative_to(TESTS).as_posix()
        except ValueError:  # not under tests/ (the notebooks nbval collects)
            return None

    named = {*WHOLE_SYSTEM, *FEW_BUT_LONG, *SHARED_UNIT, *SHARED_UNIT.values()}
    missing = sorted(name for name in named if not (TESTS / name).is_file())
    if missing:  # a renamed file would silently move into the quick suite
        raise pytest.UsageError(f"tests/conftest.py names files that are not there: {missing}")
    for item in items:
        if where(item) in WHOLE_SYSTEM:
            item.add_marker(pytest.mark.system)
    count = Counter(item.path for item in items)
    items.sort(key=lambda item: (where(item) not in FEW_BUT_LONG, -count[item.path]))


@pytest.fixture(autouse=True)
def _no_language_chosen_in_process():
    """``hl.use_language`` is this process's state (and its environment's): a test that runs a
    notebook's setup cell in-process must not pass its choice on to the next test."""
    from harness_lab import text

    before = os.environ.get("HARNESS_LAB_LANG")
    text._chosen = None
    yield
    text._chosen = None
    if before is None:
        os.environ.pop("HARNESS_LAB_LANG", None)
    else:
        os.environ["HARNESS_LAB_LANG"] = before


@pytest.fixture(autouse=True)
def _no_event_loop_left_running(request):
    """A worker's thread that still has a running asyncio loop after a test fails every later test that
    calls ``asyncio.run`` (two did so in a CI run, far from what left it): the test that leaves it fails
    itself, by name, and the loop is taken off the thread for the next one. A browser test's loop is
    Playwright's, running until its file's ``browser`` fixture stops it (tests/ui/conftest.py)."""
    import asyncio.events

    yield
    if "browser" in request.fixturenames:
        return
    left = asyncio.events._get_running_loop()
    if left is not None:
        asyncio.events._set_running_loop(None)
        pytest.fail(f"this test left an asyncio loop running on its thread: {left!r}")


def pytest_collection_finish(session) -> None:
    # What collection imported (the SDK, harness_lab, every test module) lives to the end: frozen, it
    # is left out of the worker's later collections and of those of the learner children it forks.
    # Measured on the in-process directories (emulator, harness, ui, course, reliability; 3 workers,
    # two runs each, alternating): 122-127 CPU-s of the machine frozen, 132-134 not.
    gc.freeze()
