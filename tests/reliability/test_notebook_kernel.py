"""A real kernel with a fake key set: the key never reaches an output, and runaway learner code in a
grader leaves the kernel usable.

One small notebook, built here and executed by nbconvert in a subprocess (a real Jupyter kernel,
isolated from any user configuration), does what a learner's session does with a key in the
environment: connect, step a run in the Stepper, hit an authentication error, and grade an exercise
whose code loops forever or prints megabytes. Then every stored output is searched for the key,
the grader cells are checked for their verdicts, size and timing, and later cells prove the kernel
still answers and still grades.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FAKE = "sk-ant-api03-FAKE-SECRET-0000"
ROOT = Path(__file__).resolve().parents[2]

CELLS = [
    # 0: the usual setup cell, with a key in the environment
    """import os, time
import harness_lab as hl
from harness_lab.client import connect, mode_line
from harness_lab.drain import drain
from harness_lab.loop import Run
from harness_lab.tools import get_time, read_file
from harness_lab.valves import Approval, MaxTurns, NoProgress, TokenBudget
print("key set:", os.environ.get("ANTHROPIC_API_KEY", "").startswith("sk-ant-"))""",
    # 1: a live client is built (no request is sent) and shown
    """live = connect()
print(mode_line(live))
live""",
    # 2: an offline run stepped in the Stepper, shown as a widget
    """from harness_lab.ui import Stepper
client = connect("lesson6", live=False)
print(mode_line(client))
run = Run(client, [read_file, get_time], [MaxTurns(8), TokenBudget(40_000), NoProgress(), Approval()])
stepper = Stepper(run, "README.md の1行目を読んで、それから今何時か教えて")
stepper.run_all()
stepper""",
    # 3: the live key is refused: the stop, then the raw exception with its traceback
    """import anthropic, httpx2
def refuse(request):
    body = {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}
    return httpx2.Response(401, json=body)
bad = anthropic.Anthropic(http_client=httpx2.Client(transport=httpx2.MockTransport(refuse)),
                          base_url="https://api.anthropic.com", max_retries=0)
end = drain(Run(bad, [get_time], [MaxTurns(2)]).start("こんにちは"))
print(end.cause, end.reason)
print(repr(end))
bad.messages.create(model="claude-sonnet-5", max_tokens=8, messages=[{"role": "user", "content": "x"}])""",
    # 4: a learner loop that never ends, and prints while it spins
    """from harness_lab.grading import GradeFailed, check_level1, check_level2
def runaway(client, user_input, tools, tool_impls):
    while True:
        print("まだ終わらない" * 1000)
started = time.monotonic()
try:
    check_level2({"stop_condition": "endless_turns", "no_progress": "spinning"}, runaway, 3, timeout=1.0)
except GradeFailed as failed:  # a failing grade cell fails the cell; the timing line must still print
    print(failed)
print("level2 seconds:", round(time.monotonic() - started))""",
    # 5: a learner function that prints megabytes, then raises
    """def noisy(content, tool_impls, approve):
    for _ in range(50):
        print("x" * 200_000)
    raise RuntimeError("学習者のバグ")
started = time.monotonic()
try:
    check_level1({"get_time": "allow"}, "ask", noisy, timeout=1.0)
except GradeFailed as failed:
    print(failed)
print("level1 seconds:", round(time.monotonic() - started))""",
    # 6: the kernel is still there and still grades a correct answer
    """def fixed(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        if turns >= 3:
            return "最大ターン数 3 に達したので停止します"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": str(tool_impls[b.name](**b.input))}
            for b in response.content if b.type == "tool_use"]})
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")
print("kernel alive:", sum(range(10)))
check_level2({"stop_condition": "endless_turns", "no_progress": "spinning"}, fixed, 3)""",
]


def notebook() -> dict:
    cells = []
    for index, source in enumerate(CELLS):
        metadata = {"tags": ["raises-exception"]} if index == 3 else {}
        cells.append(
            {"cell_type": "code", "execution_count": None, "metadata": metadata, "outputs": [], "source": source}
        )
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    pytest.importorskip("nbconvert")
    folder = tmp_path_factory.mktemp("kernel")
    path = folder / "session.ipynb"
    path.write_text(json.dumps(notebook(), ensure_ascii=False), encoding="utf-8")
    env = dict(os.environ)
    env.update(
        ANTHROPIC_API_KEY=FAKE,
        HARNESS_LAB_LANG="ja",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        JUPYTER_CONFIG_DIR=str(folder / "config"),
        JUPYTER_DATA_DIR=str(folder / "data"),
        JUPYTER_RUNTIME_DIR=str(folder / "runtime"),
        IPYTHONDIR=str(folder / "ipython"),
    )
    env.pop("ANTHROPIC_BASE_URL", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--inplace",
            str(path),
            "--ExecutePreprocessor.timeout=120",
        ],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    text = path.read_text(encoding="utf-8")
    return json.loads(text), text, done.stdout + done.stderr


def output_text(cell: dict) -> str:
    # Consecutive stream outputs are joined with nothing between them, as a front end shows them: a
    # busy kernel may flush one print() in two stream messages ("kernel alive:" then " 45").
    parts: list[str] = []
    stream = None
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            text = "".join(output["text"])
            if stream == output["name"]:
                parts[-1] += text
            else:
                parts.append(text)
            stream = output["name"]
            continue
        stream = None
        for value in output.get("data", {}).values():
            parts.append(
                value
                if isinstance(value, str)
                else "".join(value)
                if isinstance(value, list)
                else json.dumps(value, ensure_ascii=False)
            )
        parts += output.get("traceback", []) + [output.get("evalue", "")]
    return "\n".join(parts)


def test_the_key_never_reaches_an_output(executed):
    nb, text, logs = executed
    assert "key set: True" in output_text(nb["cells"][0])  # the key really was in the kernel
    assert FAKE not in text and FAKE not in logs
    assert FAKE not in json.dumps(nb, ensure_ascii=True)


def test_the_auth_failure_is_a_stop_and_a_traceback_without_the_key(executed):
    nb, _, _ = executed
    shown = output_text(nb["cells"][3])
    assert "api_error" in shown and "invalid x-api-key" in shown
    errors = [o for o in nb["cells"][3]["outputs"] if o["output_type"] == "error"]
    assert errors and errors[0]["ename"] == "AuthenticationError"
    assert FAKE not in shown


def test_runaway_learner_code_fails_in_time_without_flooding_the_cell(executed):
    nb, _, _ = executed
    for index, label in ((4, "level2 seconds:"), (5, "level1 seconds:")):
        shown = output_text(nb["cells"][index])
        assert "× 不合格" in shown and len(shown) < 5_000, shown[:500]
        seconds = int(shown.split(label)[1].split()[0])
        # a net, not a stopwatch: limits of 1 s per run end far below it even on a loaded machine,
        # while a grade that waited out the endless loop would never print at all
        assert seconds <= 60, (label, seconds)
    assert "まだ終わらない" not in output_text(nb["cells"][4])
    assert "xxxxxxxxxx" not in output_text(nb["cells"][5])


def test_the_kernel_still_answers_and_grades_after(executed):
    nb, text, _ = executed
    shown = output_text(nb["cells"][6])
    assert "kernel alive: 45" in shown
    # The report is one display of text and HTML: count its criteria in the text alone.
    report = [o["data"]["text/plain"] for o in nb["cells"][6]["outputs"] if "text/plain" in o.get("data", {})]
    assert "".join(map("".join, report)).count("○ 合格") == 3 and "× 不合格" not in shown
    assert len(text) < 2_000_000  # no megabytes stored anywhere in the notebook
