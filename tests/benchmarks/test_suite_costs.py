"""The test run's cost tables (benchmarks/suite_costs.py) and the side-by-side run (benchmarks/suite_time.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from benchmarks import suite_costs, suite_time

ROOT = suite_costs.ROOT

SAMPLE = """
import time

def test_waits():
    time.sleep(0.4)

def test_works():
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
"""


def test_each_test_is_recorded_with_the_time_it_waited_apart_from_the_cpu_it_used(tmp_path):
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    env = {**os.environ, suite_costs.FOLDER: str(tmp_path / "costs"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "benchmarks.suite_costs",
            "test_sample.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    records = {record["test"]: record for record in suite_costs.read(tmp_path / "costs")}
    waits, works = records["test_sample.py::test_waits"], records["test_sample.py::test_works"]
    assert waits["wall"] >= 0.4 and waits["cpu"] < 0.2
    assert works["cpu"] >= 0.3
    table = suite_costs.report(list(records.values()))
    assert "| test_sample.py | 2 |" in table


def test_the_tables_sum_by_folder_and_by_the_cause_a_files_source_names():
    records = [
        {"test": "tests/ui/test_browser.py::test_a", "wall": 30.0, "cpu": 2.0, "children": 0.0},
        {"test": "tests/ui/test_browser.py::test_b", "wall": 10.0, "cpu": 1.0, "children": 0.0},
        {"test": "tests/harness/test_valves.py::test_c", "wall": 1.0, "cpu": 1.0, "children": 0.0},
    ]
    table = suite_costs.report(records)
    assert "| tests/ui | 2 | 40 | 98% | 3 | 37 |" in table
    assert "| browser | 2 | 40 |" in table and "| tests/harness | 1 | 1 |" in table


def test_the_side_by_side_run_times_both_trees_and_prints_their_ratios(capsys):
    assert suite_time.main(["--base", "HEAD", "--reps", "1", "-n", "0", "tests/package/test_layers.py"]) == 0
    said = capsys.readouterr().out
    assert "rep 1 base" in said and "rep 1 this tree" in said
    assert "  wall: " in said and "  CPU: " in said


def test_a_junit_file_is_read_by_test_file_with_a_test_class_folded_into_its_module(tmp_path):
    junit = tmp_path / "run.xml"
    junit.write_text(
        '<testsuites><testsuite><testcase classname="tests.ui.test_browser.TestPanel" name="test_a" time="2.5"/>'
        '<testcase classname="tests.harness.test_loop" name="test_b" time="0.5"/></testsuite></testsuites>',
        encoding="utf-8",
    )
    assert suite_costs.read(junit) == [
        {"test": "tests/ui/test_browser.py::test_a", "wall": 2.5},
        {"test": "tests/harness/test_loop.py::test_b", "wall": 0.5},
    ]
