"""Every hint the graders can give is provoked by some answer in the batteries.

A hint nobody can provoke is either dead or untested; a hint provoked by the wrong mistake is what
issue 12 found ("stopped processing the remaining calls" for a tool that fell to the default). The
batteries' own tests check that each answer gets exactly its declared hint; this test checks that
the declared hints cover the catalog.
"""

from __future__ import annotations

import re

import answers_level1
import answers_level2
from test_notebook_grading import NOTEBOOK_FAILURES

from harness_lab.text import CATALOG

# Catalog entries under grade.* that are not hints: titles, options, marks, notes, try-it lines.
NOT_HINTS = re.compile(
    r"grade\.(criterion|hint|mark\..*|all_passed|some_passed|none_passed|failed|failed_join|raised_at(_line)?|try\..*"
    r"|l\d\.c\d\.title|l1\.options\..*|l1\.opt\..*|l2\.options\..*|l2\.gap\..*|l2\.runaway\..*"
    r"|l1\.c1\.allow_warning|l2\.c3\.fixed_cap|nb\.header|nb\.name_(note|typo|unknown)|nb\.not_graded|nb\.summary(_unread)?|nb\.unsafe_path|nb\.usage\..*"  # usage: test_command_usage.py
    r"|class\..*"  # the class report's words and lines: see test_classroom.py
    r"|sandbox\..*)"  # the sandbox's refusals and the probe's findings: see test_isolation.py
)


def declared() -> set[str]:
    keys = set()
    for battery in (answers_level1.WRONG, answers_level1.HOSTILE, answers_level2.WRONG, answers_level2.HOSTILE):
        for _, expected in battery.values():
            keys |= set(expected.values())
    return keys | set(NOTEBOOK_FAILURES) | set(PROVOKED_BY_THEIR_OWN_TEST)


# Hints a batch entry cannot provoke, each with the test that does.
PROVOKED_BY_THEIR_OWN_TEST = {
    "grade.nb.cell_timeout": "test_notebook_grading.py::test_a_runaway_answer_cell_costs_the_cells_limit_not_the_notebooks",
    "grade.nb.cell_recursion": "test_notebook_grading.py::test_an_answer_cell_that_recurses_without_end_is_told_as_recursion_not_a_loop",
    "grade.nb.cell_stopped": "test_notebook_grading.py::test_an_answer_cell_that_stops_its_own_process_is_told_as_stopped_not_a_loop",
    "grade.nb.pipe_cut": "test_notebook_grading.py::test_an_answer_cell_that_closes_the_descriptors_it_inherited_is_told_so_not_as_a_crash",
    "grade.tampered": "test_tampering.py::test_the_tampering_hint_names_the_cause",
    "grade.nb.tampered": "test_an_answer_the_job_did_not_send_is_told_as_tampering.py::test_bytes_written_into_every_inherited_descriptor_are_told_as_tampering",
    "grade.nb.cell_too_deep": "test_notebook_grading.py::test_an_answer_cell_nested_past_the_parser_is_named_not_blamed_on_the_memory_limit",
    "grade.cell_failed": "test_grade_cell_after_error.py::test_a_grade_cell_after_an_answer_cell_raised_names_that_cell_and_fails",
    "grade.interrupted": "test_level2.py::test_an_interrupted_grade_cell_says_so_in_one_line",
    "grade.file_limit": "test_answer_cells_cannot_fill_the_disk.py::test_an_answer_cell_graded_without_namespaces_writes_no_file_past_the_limit",
    "grade.nb.folder_full": "test_answer_cells_cannot_fill_the_disk.py::test_answer_cells_graded_without_namespaces_fill_no_more_than_the_sandboxs_folders",
    "grade.nb.host_not_restarted": "test_a_lost_grading_host_is_never_replaced_by_a_weaker_one.py::test_a_host_killed_by_an_answer_cell_leaves_the_next_notebook_ungraded_never_graded_in_the_command",
    "grade.nb.others_file": "test_a_hard_link_to_another_users_file_is_not_graded_as_the_learners.py::test_grade_class_gives_the_hard_link_a_row_of_its_own_and_classmates_their_grades",
}


def test_every_hint_key_is_provoked_by_an_answer():
    hints = {key for key in CATALOG if key.startswith("grade.") and not NOT_HINTS.fullmatch(key)}
    assert hints - declared() == set()


def test_the_batteries_name_only_real_hints():
    assert declared() - set(CATALOG) == set()
