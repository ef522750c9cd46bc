"""Round seventeen of a learner's whole harness (lesson 6's ``run_agent``), typed after reading notebook 05:
each wrong one with the point that must catch it and the hint that must name it (the right ones, in other
styles, are in ``answers_whole_harness_right``).

Six used to pass: three loops whose ``except BaseException``, bare ``except:`` or ``except KeyboardInterrupt``
around the tools made a failed result of Ctrl-C and asked the model again; two that put the refused calls'
results after the others (collected apart, or taken from threads as they completed); one that took a
refused tool out of the caller's ``tools`` list. Four got another cause's hint: text put before the results
was told a denial had no result; every tool put to approve with no approver was told the counts or "valve 3
before any tool ran"; valve 1 asked after the tools with ``>`` was told the limit was not read; a count of
input and cache tokens was told "input_tokens alone" (point 1 names it too). Many run the tools in the loop
itself (``INLINE``), as a learner who does not reuse lesson 5's ``run_tool_uses`` writes them.
"""

from __future__ import annotations

from tests.lessons.answers6 import variant

RUN = "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"

# The tools run in the loop itself, approval first, as a learner who does not call run_tool_uses writes it.
INLINE = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    turns, tokens_used, last_signature = 0, 0, None
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    u = response.usage
    tokens_used += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
    step = next_step(response)
    while step in ("run_tools", "resend"):
        if turns >= MAX_TURNS:
            return lessons.stopped("max_turns", "上限", turns, tokens_used)
        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
        turns += 1
        results = []
        if step == "run_tools":
            signature = signature_of(response.content)
            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
            for block in response.content:
                if block.type != "tool_use":
                    continue
                if block.name in HIGH_IMPACT and not (approve is not None and approve(block.name, block.input)):
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": "拒否されました", "is_error": True})
                    continue
                try:
                    output = tool_impls[block.name](**block.input)
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
                except Exception as err:
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True})
        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        u = response.usage
        tokens_used += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
        step = next_step(response)
    if step == "finish":
        return lessons.finished(response, turns, tokens_used)
    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)
"""
LOOP_HEAD = """            for block in response.content:
                if block.type != "tool_use":
                    continue
"""
GATE = """                if block.name in HIGH_IMPACT and not (approve is not None and approve(block.name, block.input)):
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": "拒否されました", "is_error": True})
                    continue
"""
RUN_IT = """                try:
                    output = tool_impls[block.name](**block.input)
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
                except Exception as err:
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True})
"""
OK = """                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
"""
DENIED = """                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": "拒否されました", "is_error": True})
"""
FAILED = """                except Exception as err:
"""
SENT = """            messages.append({"role": "user", "content": results})
"""
APPEND_TURN = """        messages.append({"role": "assistant", "content": response.content})
"""
VALVE_1 = """        if turns >= MAX_TURNS:
            return lessons.stopped("max_turns", "上限", turns, tokens_used)
"""


def inline(*edits: tuple[str, str]) -> str:
    return variant(*edits, base=INLINE)


# valve 1 asked at the bottom of a while True, after the turn's tools and its yield, with ">"
WHILE_TRUE_LATE = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    turns, tokens_used, last_signature = 0, 0, None
    while True:
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        u = response.usage
        tokens_used += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
        step = next_step(response)
        if step not in ("run_tools", "resend"):
            break
        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
        turns += 1
        results = []
        if step == "run_tools":
            signature = signature_of(response.content)
            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))
        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)
        if turns > MAX_TURNS:
            return lessons.stopped("max_turns", "上限", turns, tokens_used)
    if step == "finish":
        return lessons.finished(response, turns, tokens_used)
    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)
"""

WRONG_RUN_AGENT_ROUND_17 = [
    # Ctrl-C while the tools run: "a failure is a result, the loop goes on" taken to cover everything.
    (
        variant(
            (
                RUN,
                """            try:
                results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))
            except BaseException as err:
                results = [{"type": "tool_result", "tool_use_id": b.id, "content": f"失敗: {err!r}", "is_error": True} for b in response.content if b.type == "tool_use"]
""",
            )
        ),
        8,
        "lesson.l6.run_agent.interrupt_caught",
    ),
    (
        inline((FAILED, "                except:\n"), ('f"失敗: {err}"', '"ツールが失敗しました"')),
        8,
        "lesson.l6.run_agent.interrupt_caught",
    ),
    # KeyboardInterrupt named on purpose, "so a stopped tool is reported to the model too"
    (
        inline((FAILED, "                except (Exception, KeyboardInterrupt) as err:\n")),
        8,
        "lesson.l6.run_agent.interrupt_caught",
    ),
    # The refused calls' results collected apart and put after the others: the calls' order is lost.
    (
        inline(
            ("        results = []\n", "        results, refused = [], []\n"),
            (
                DENIED + "                    continue\n",
                DENIED.replace("results.append", "refused.append") + "                    continue\n",
            ),
            (APPEND_TURN, "        results += refused\n" + APPEND_TURN),
        ),
        6,
        "lesson.l6.run_agent.results_order",
    ),
    # The turn's calls run by threads, each result taken as it completes.
    (
        inline(
            (RUN_IT, "                calls.append(block)\n"),
            (
                LOOP_HEAD,
                "            from concurrent.futures import ThreadPoolExecutor, as_completed\n\n            calls = []\n"
                + LOOP_HEAD,
            ),
            (
                APPEND_TURN,
                """            def one(b):
                try:
                    return {"type": "tool_result", "tool_use_id": b.id, "content": str(tool_impls[b.name](**b.input))}
                except Exception as err:
                    return {"type": "tool_result", "tool_use_id": b.id, "content": f"失敗: {err}", "is_error": True}

            with ThreadPoolExecutor() as pool:
                results += [f.result() for f in as_completed([pool.submit(one, b) for b in calls])]
"""
                + APPEND_TURN,
            ),
        ),
        6,
        "lesson.l6.run_agent.results_order",
    ),
    # A refused tool taken out of the tools list "so the model stops asking for it": the caller's list.
    (
        inline(
            (
                DENIED + "                    continue\n",
                DENIED
                + '                    tools[:] = [t for t in tools if t["name"] != block.name]\n                    continue\n',
            )
        ),
        6,
        "lesson.l6.run_agent.tools_changed",
    ),
    # A line of text put before the results, "so the model knows what follows": the results must come first.
    (
        variant(
            (
                SENT,
                SENT.replace(
                    '"content": results', '"content": [{"type": "text", "text": "ツールの結果です"}] + results'
                ),
            )
        ),
        6,
        "lesson.l2.results_first",
    ),
    # Approval put to every call, the harmless ones too: with no approver, even read_file is refused.
    (
        inline(("if block.name in HIGH_IMPACT and not (approve", "if not (approve")),
        1,
        "lesson.l6.run_agent.harmless_refused",
    ),
    (
        inline(("if block.name in HIGH_IMPACT and not (approve", "if not (approve")),
        5,
        "lesson.l6.run_agent.harmless_refused",
    ),
    # Valve 1 at the bottom of a while True, after the tools, with ">": one turn's tools past the limit.
    (WHILE_TRUE_LATE, 3, "lesson.l6.run_agent.over_after_tools"),
    # Valve 2 counting what went in (input and the cache), the model's output forgotten: point 1's finished
    # task shows the count as well as point 4's budget.
    (variant((" + response.usage.output_tokens\n", "\n")), 1, "lesson.l6.run_agent.budget_field_omitted"),
    (variant((" + response.usage.output_tokens\n", "\n")), 4, "lesson.l6.run_agent.budget_field_omitted"),
    # Approval asked after the tool ran, "to ask with its output in hand".
    (
        inline(
            (GATE, ""),
            (
                OK,
                "                    if block.name in HIGH_IMPACT and not (approve and approve(block.name, block.input)):\n    "
                + DENIED
                + "                        continue\n"
                + OK,
            ),
        ),
        6,
        "lesson.l6.run_agent.denied_ran",
    ),
    # One question for the turn: the first high-impact call's answer taken for them all.
    (
        inline(
            (
                LOOP_HEAD,
                """            risky = [b for b in response.content if b.type == "tool_use" and b.name in HIGH_IMPACT]
            allowed = bool(risky) and approve is not None and approve(risky[0].name, risky[0].input)
"""
                + LOOP_HEAD,
            ),
            ("not (approve is not None and approve(block.name, block.input))", "not allowed"),
        ),
        6,
        "lesson.l6.run_agent.one_answer_per_turn",
    ),
    # A denial noted, then the tool run anyway and only its result swapped for the refusal.
    (
        inline(
            (
                GATE,
                "                denied = block.name in HIGH_IMPACT and not (approve and approve(block.name, block.input))\n",
            ),
            (OK, "                    if denied:\n    " + DENIED + "                    else:\n    " + OK),
        ),
        6,
        "lesson.l6.run_agent.denied_ran",
    ),
    # A denial answered with nothing at all, "the model need not hear about it".
    (inline((DENIED, "")), 6, "lesson.l6.run_agent.denied_dropped"),
    # A denial answered as plain text: nothing tells the model the call did not happen.
    (
        inline(('"content": "拒否されました", "is_error": True}', '"content": "拒否されました"}')),
        6,
        "lesson.l6.run_agent.denied_not_error",
    ),
    # The first call's id kept and reused for read_file's results in later turns.
    (
        inline(
            (
                "    turns, tokens_used, last_signature = 0, 0, None\n",
                "    turns, tokens_used, last_signature = 0, 0, None\n    first_id = None\n",
            ),
            (LOOP_HEAD, LOOP_HEAD + "                first_id = first_id or block.id\n"),
            (
                OK,
                OK.replace(
                    '"tool_use_id": block.id', '"tool_use_id": first_id if block.name == "read_file" else block.id'
                ),
            ),
        ),
        5,
        "lesson.l2.results_first",
    ),
    # Valve 1 asked after the next request came back, inside the loop: the answer at the limit is stopped.
    (
        variant(
            (VALVE_1, ""),
            (
                "        step = next_step(response)\n    if step",
                "        step = next_step(response)\n" + VALVE_1 + "    if step",
            ),
        ),
        3,
        "lesson.l6.run_agent.limit_after_answer",
    ),
    # Only run_tools goes round: pause_turn ends the run with the paused text.
    (
        variant(('    while step in ("run_tools", "resend"):', '    while step == "run_tools":')),
        2,
        "lesson.l6.run_agent.pause_turn",
    ),
    # The stop message made from the first block's text: a thinking block, or no block at all, is first.
    (
        variant(
            (
                'lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)',
                "lessons.stopped(response.stop_reason, response.content[0].text, turns, tokens_used)",
            )
        ),
        2,
        "lesson.rule.first_not_text",
    ),
    (
        variant(
            (
                "        return lessons.finished(response, turns, tokens_used)\n",
                '        return lessons.finished(response, turns, tokens_used)\n    if response.stop_reason == "refusal":\n        return lessons.stopped("refusal", "拒否: " + response.content[0].text, turns, tokens_used)\n',
            )
        ),
        2,
        "lesson.empty_content",
    ),
]
