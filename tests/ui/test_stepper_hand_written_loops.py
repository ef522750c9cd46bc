"""The Stepper over a learner's hand-written loop: lesson 6's valves drawn, no signature gauge, stop ends a loop
that does not catch the interrupt, tokens it did not count shown from its turns.
"""

import asyncio

from harness_lab.events import Turn, Usage
from harness_lab.text import t
from harness_lab.ui import Stepper


def _hand_written(client, user_input, tools, tool_impls, approve=None):
    """A learner's lesson-6 loop in brief: it writes its valves inline and keeps no RunState."""
    from harness_lab import lessons

    messages, turns = [{"role": "user", "content": user_input}], 0
    while True:
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, messages=messages, tools=tools)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return lessons.finished(response, turns)
        turns += 1
        if turns >= 3:
            return lessons.stopped("max_turns", "上限です", turns)
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": str(tool_impls[b.name](**b.input))}
            for b in response.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)


def test_a_hand_written_loop_draws_lesson_6s_valves_and_no_signature_gauge():
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    loop = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    s = Stepper(loop, "メモを順に読んで")
    s.run_all()
    assert s.outcome.cause == "max_turns"
    for valve in ("max_turns", "token_budget", "no_progress", "approval"):  # written inline, drawn all the same
        assert f"hl-valve-{valve}" in s.diagram_html.value
    assert "hl-valve-max_turns hl-fired" in s.diagram_html.value
    assert "signature" not in s.gauge_rows and t("ui.gauge.signature") not in repr(s)


def test_stop_ends_a_hand_written_loop_that_does_not_catch_the_interrupt():
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    loop = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    s = Stepper(loop, "メモを順に読んで")
    s.step()
    s.stop_button.click()  # the learner's generator lets KeyboardInterrupt through; the panel must not
    assert s.outcome.cause == "interrupted" and s.error is None and s.next_button.disabled
    assert s.outcome.turns == 1 and s.outcome.reason == t("ui.stop.interrupted_hand_written")
    assert s.outcome.usage.total == s.gauges()["tokens"] == s.last_turn.usage.total > 0  # not "0 tokens in all"
    assert s.resume_button.layout.display == "none" and not s.resume()  # its generator is gone: no resume

    hand = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    paced = Stepper(hand, "x", speed="slow")

    async def run_then_stop():  # the browser's case: 「最後まで」, then 「停止」 while it waits between turns
        paced.all_button.click()
        while not paced.entries and not paced.done:
            await asyncio.sleep(0.01)
        paced.stop_button.click()
        while not paced.done:
            await asyncio.sleep(0.01)

    asyncio.run(asyncio.wait_for(run_then_stop(), timeout=60))
    assert paced.outcome.cause == "interrupted" and paced.error is None


def test_a_hand_written_stop_that_counted_no_tokens_shows_what_its_turns_used():
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    loop = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    s = Stepper(loop, "メモを順に読んで")
    s.run_all()  # the loop's own stopped(...) says nothing of tokens
    turns = [e for e in s.entries if isinstance(e, Turn)]
    assert s.outcome.cause == "max_turns" and len(turns) == 2
    assert s.outcome.usage == sum((e.usage for e in turns), Usage()) and s.outcome.usage.total > 0


def test_a_bare_loop_between_turns_draws_the_place_it_names(make_run):
    run = make_run("never_ending")
    run.valves = []
    s = Stepper(run, "メモを順に読んで")
    assert "hl-no-valve" not in s.diagram_html.value
    s.step()
    drawn = s.diagram_html.value
    assert "hl-no-valve" in drawn and t("ui.diagram.no_valve") in drawn  # loop_top has a box, saying it is empty
    assert "loop_top" in drawn
