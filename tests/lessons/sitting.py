"""How long a lesson notebook takes a beginner, estimated from what it asks (issue 28.8).

Reading 400 Japanese characters of prose a minute, code at 12 non-blank lines a minute (an import
shown before counted once), a quarter of a minute to run each code cell and look at its output, the
minutes each written piece takes, and one per prediction. Calibrated on the issue-28 walkthrough, where a beginner needed 45-60 minutes per
notebook: the same formula gives 44-55 minutes for the notebooks as they were then (commit 8a2e27d).
The header of each lesson states this estimate, rounded to 5 minutes; ``test_sitting`` keeps it true.
"""

from __future__ import annotations

import nbformat

READ_PER_MINUTE = 400
CODE_PER_MINUTE = 12
RUN_MINUTES = 0.25
PREDICT_MINUTES = 1
# Minutes to write and fix each piece, by how much of it is new (the first loop, the valves, the capstone).
WRITE_MINUTES = {
    "run_tools": 8,
    "run_agent": 8,
    "next_step": 5,
    "signature_of": 6,
    "run_tool_uses": 7,
    "read_file": 6,
    "my_agent": 8,
    "stop_message": 6,
}
WHOLE_HARNESS = 12  # lesson 6's run_agent: four valves and next_step into a generator


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def read_lines(cells) -> list[str]:
    """The non-blank code lines a learner reads: an import the notebook already showed (a check or grade
    cell importing what it calls, so it also runs after a kernel restart) is not read again."""
    lines: list[str] = []
    for cell in cells:
        for line in cell.source.splitlines():
            if line.strip() and not (line.startswith(("from ", "import ")) and line in lines):
                lines.append(line)
    return lines


def minutes(nb: nbformat.NotebookNode) -> dict[str, float]:
    """The estimate, by part: reading (prose and code), writing the pieces, running and predicting."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    todo = [c for c in code if "todo" in tags(c)]
    prose = sum(len(c.source) for c in nb.cells if c.cell_type == "markdown")
    lines = len(read_lines(c for c in code if c not in todo))
    pieces = [t.removeprefix("piece:") for c in todo for t in tags(c) if t.startswith("piece:")]
    last_lesson = any("lesson=6" in c.source for c in code)
    write = sum(WHOLE_HARNESS if p == "run_agent" and last_lesson else WRITE_MINUTES[p] for p in pieces)
    guesses = sum(1 for c in code if "MY_GUESS = " in c.source)
    return {
        "read": prose / READ_PER_MINUTE + lines / CODE_PER_MINUTE,
        "write": write,
        "run": RUN_MINUTES * len(code) + PREDICT_MINUTES * guesses,
    }


def stated(nb: nbformat.NotebookNode) -> str:
    """What the header says, from the estimate: 「約45分（読む 25分・書いて確かめる 15分・実行 5分）」."""
    parts = minutes(nb)
    total = 5 * round(sum(parts.values()) / 5)
    return f"約{total}分（読む {round(parts['read'])}分・書いて確かめる {round(parts['write'])}分・実行と予想 {round(parts['run'])}分）"
