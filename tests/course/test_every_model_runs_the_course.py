"""What a learner who sets ``HARNESS_LAB_MODEL`` to any model of the emulator's table meets: the course's
loop (``Run``, what ``harness-lab run`` and the lessons drive) through every scenario, without a 400.

A request the course builds that a model refuses would be refused live as well (the emulator's rules are
the API's), so a stop with cause ``api_error`` here is a course bug or an emulator bug, never noise.
"""

from __future__ import annotations

import pytest

import harness_lab
from harness_lab import MaxTurns, NoProgress, TokenBudget
from harness_lab.emulator import emulated_client
from harness_lab.emulator.models import MODELS
from harness_lab.emulator.scenarios import SCENARIOS
from harness_lab.tools import get_time, make_delete_file, make_http_post, make_read_file, make_write_file

PROMPT = "README.md の1行目を読んで、それから今何時か教えて"


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_scenario_runs_on_the_model_without_a_refusal(model, monkeypatch, tmp_path):
    monkeypatch.setenv("HARNESS_LAB_MODEL", model)  # what a learner sets; the loop reads it at each run
    (tmp_path / "README.md").write_text("# notes\n", encoding="utf-8")
    tools = [
        make_read_file(root=tmp_path),
        get_time,
        make_write_file(),
        make_delete_file(),
    ]  # never approved: none runs
    refused = {}
    for name in SCENARIOS:
        client = emulated_client(name, max_retries=0)
        valves = [MaxTurns(6), TokenBudget(200_000), NoProgress()]
        outcome = harness_lab.run(client, PROMPT, tools=[*tools, make_http_post()], valves=valves, approve=None)
        cause = getattr(outcome.stop, "cause", None)  # a Finished run has none
        if cause in ("api_error", "unexpected"):
            refused[name] = outcome.stop.reason
    assert refused == {}
