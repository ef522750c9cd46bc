"""The level-1 exercise's tools (``TOOLS``) and what the graders' spy tools return follow the edition:
the English exercise imported Japanese tool definitions, and its graded code got Japanese results, so an
English learner who printed ``TOOLS`` or a tool's result read Japanese. Each English text costs the
emulator as many tokens as the Japanese one, so a loop with a token budget stops at the same request in
both editions.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import answers_level1 as answers
import nbformat
import pytest

from harness_lab.emulator.tokens import text_tokens, value_tokens
from harness_lab.grading import grade_level1
from harness_lab.grading.scenarios import outputs, tool_defs
from harness_lab.text import speaking

ROOT = Path(__file__).resolve().parents[2]
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")


def setup_code(notebook: Path) -> str:
    cells = nbformat.read(notebook, as_version=4).cells
    return "\n".join(c.source for c in cells if "setup" in c.metadata.get("tags", []))


@pytest.mark.parametrize(
    "notebook, other",
    [("exercises/en/level1_tiered_policy.ipynb", "ja"), ("exercises/level1_tiered_policy.ipynb", "en")],
)
def test_the_exercises_tools_are_described_in_its_edition_whatever_the_environment_says(notebook, other):
    shown = "\nimport json\nprint(json.dumps(TOOLS, ensure_ascii=False))"
    env = {**os.environ, "HARNESS_LAB_LANG": other}
    done = subprocess.run(
        [sys.executable, "-c", setup_code(ROOT / notebook) + shown],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    descriptions = [tool["description"] for tool in json.loads(done.stdout)]
    in_japanese = [bool(JAPANESE.search(text)) for text in descriptions]
    assert in_japanese == [other == "en"] * len(descriptions), descriptions


def quoting_its_tools(content, tool_impls, approve):
    """Raises with what two tools returned: the grader's hint quotes the error."""
    raise ValueError(" / ".join(str(tool_impls[name]()) for name in ("write_file", "send_email")))


def test_an_english_grader_hands_the_learners_code_english_results():
    with speaking("en"):
        text = grade_level1(answers.DICT_POLICY, answers.DICT_DEFAULT, quoting_its_tools).text()
        quoted = " / ".join(outputs()[name] for name in ("write_file", "send_email"))
    assert quoted in text, text
    assert not (found := JAPANESE.search(text)), text[max(found.start() - 200, 0) : found.end() + 80]


def test_each_text_costs_the_emulator_the_same_tokens_in_both_editions():
    with speaking("ja"):
        japanese = ({k: text_tokens(v) for k, v in outputs().items()}, [value_tokens(d) for d in tool_defs()])
    with speaking("en"):
        english = ({k: text_tokens(v) for k, v in outputs().items()}, [value_tokens(d) for d in tool_defs()])
    assert english == japanese


def test_an_exercise_saved_before_the_change_still_imports_the_old_names_in_the_language_spoken():
    # a handed-in notebook's setup cell, which the grader runs, may still say `import TOOL_DEFS as TOOLS`
    with speaking("en"):
        from harness_lab.grading.scenarios import OUTPUTS, TOOL_DEFS

        assert tool_defs() == TOOL_DEFS and outputs() == OUTPUTS
    assert not [tool for tool in TOOL_DEFS if JAPANESE.search(tool["description"])]
