"""Notebook 01 (lesson 2) as a learner meets it: shipped with its TODOs unwritten (its stored outputs,
which strict nbval holds to a fresh run), with a wrong piece typed in (the check names the cause and the
lesson goes on), and with a right one (the check saves it and the cells after it run the learner's own
code). Each run here starts in its own temporary folder, which is also the kernel's working directory:
nothing may assume notebooks/ is the cwd."""

from __future__ import annotations

from harness_lab import lessons  # noqa: F401  (adds the lessons' catalog entries)
from harness_lab.text import CATALOG, t
from tests.lessons.notebook_runner import check_output, output_text, run_notebook, stored

NAME = "01_bare_loop"

WRONG_RUN_TOOLS = """
def run_tools(content, impls):
    return [{"type": "tool_result", "tool_use_id": b.id, "content": json.dumps(impls[b.name](**b.input))}
            for b in content if b.type == "tool_use"]
"""

WRONG_RUN_AGENT = """
def run_agent(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return hl.text_of(response.content)
"""

# Right versions, each with a trait of its own that the reference lacks, so a later cell's output
# shows whose code ran: an explicit "is_error": False, and a trace line per turn.
RIGHT_RUN_TOOLS = """
def run_tools(content, impls):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = impls[block.name](**block.input)
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": False})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True})
    return results
"""

TRACE = "[自分のループ] ターン"
RIGHT_RUN_AGENT = """
def run_agent(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    turn = 0
    while response.stop_reason == "tool_use":
        turn += 1
        print("[自分のループ] ターン", turn, [b.name for b in response.content if b.type == "tool_use"])
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return hl.text_of(response.content)
"""


def hint(key: str) -> str:
    """The hint's Japanese text up to its first placeholder (the 400 it quotes varies by id)."""
    return CATALOG[key][0].split("{")[0]


def cell_after(nb, needle: str) -> str:
    """The output of the first code cell whose source contains ``needle``."""
    cell = next(c for c in nb.cells if c.cell_type == "code" and needle in c.source)
    return output_text(cell)


def test_shipped_goes_on_with_the_references_and_keeps_the_counts_back():
    nb = stored(NAME)
    for piece in ("run_tools", "run_agent"):
        assert t("lesson.check.unwritten", name=piece, show=f'lessons.show("{piece}")') in check_output(nb, piece)
    counted = cell_after(nb, "lessons.compare(")  # the prediction is blank: the numbers stay hidden
    assert t("lesson.predict.all_blank", whats="モデルへのリクエスト・ツール呼び出しのターン") in counted
    assert "実際は" not in counted and TRACE not in counted
    assert "`tool_use` ids must be unique" in cell_after(nb, "run_agent_dead(dead")
    refused = cell_after(nb, "filtered = ")  # text only, then text and tool_use without the thinking block
    assert "unexpected `tool_use_id`" in refused and "Expected `thinking` or `redacted_thinking`" in refused


def test_wrong_run_tools_gets_its_hint_and_a_right_run_agent_is_kept_and_used(tmp_path):
    nb = run_notebook(NAME, tmp_path, fill={"run_tools": WRONG_RUN_TOOLS, "run_agent": RIGHT_RUN_AGENT}, guess=0)
    tools_verdict = check_output(nb, "run_tools")
    assert "×" in tools_verdict and hint("lesson.l2.run_tools.ascii") in tools_verdict
    assert t("lesson.check.go_on_with_reference", name="run_tools", show='lessons.show("run_tools")') in tools_verdict
    assert "'is_error': False" not in cell_after(nb, "run_tools(response.content, impls)")  # the reference's results

    assert "◎" in check_output(nb, "run_agent") and "×" not in check_output(nb, "run_agent")
    counted = cell_after(nb, "lessons.compare(")
    assert f"{TRACE} 1 ['get_weather']" in counted and f"{TRACE} 2 ['get_forecast']" in counted
    assert "予想 0 → 実際は 3" in counted and "予想 0 → 実際は 2" in counted  # with a guess, the answer
    kept = (tmp_path / "my_harness.py").read_text(encoding="utf-8")
    assert "# ==== run_agent (lesson 2) ====" in kept and "# ==== run_tools" not in kept


def test_wrong_run_agent_gets_its_hint_and_a_right_run_tools_is_kept_and_used(tmp_path):
    nb = run_notebook(NAME, tmp_path, fill={"run_tools": RIGHT_RUN_TOOLS, "run_agent": WRONG_RUN_AGENT})
    assert "◎" in check_output(nb, "run_tools") and "×" not in check_output(nb, "run_tools")
    assert "'is_error': False" in cell_after(nb, "run_tools(response.content, impls)")

    agent_verdict = check_output(nb, "run_agent")
    assert "×" in agent_verdict and hint("lesson.l2.reassign") in agent_verdict
    assert TRACE not in cell_after(nb, "lessons.compare(")  # the lesson went on with the reference loop
    kept = (tmp_path / "my_harness.py").read_text(encoding="utf-8")
    assert "# ==== run_tools (lesson 2) ====" in kept and '"is_error": False' in kept
    assert "# ==== run_agent" not in kept
