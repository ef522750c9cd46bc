"""Round twenty of a learner's answers to the pieces of notebooks 01 to 06 (``run_tools``, the bare
``run_agent``, ``next_step``, ``signature_of``, ``run_tool_uses``, ``stop_message``), each wrong one with the
point that must catch it and the hint that must name it; and right answers in other styles (a match
statement, hashlib, a comprehension over a dispatch table, functools.reduce).

Two got another cause's hint: a bare loop that rebuilds its history from the question and the last turn
was told only "does anything inside the loop change its condition?" (its requests were as long as the ones
before them, not shorter). Rounds 15 and 16's run_tool_uses that asks about the turn's first high-impact call
and keeps that answer for the others was told delete_file is never asked about, though alone in a turn it is:
it is now told the answer was carried.
"""

from __future__ import annotations

import hashlib
import json
from functools import reduce

from harness_lab.lessons.lesson5 import HIGH_IMPACT

MODEL = "claude-sonnet-5"


def _result(block, text, error=False):
    result = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    return {**result, "is_error": True} if error else result


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def _calls(content):
    return [b for b in content if b.type == "tool_use"]


# --- run_tools (lesson 2) --------------------------------------------------------------------------
def tools_is_error_as_words(content, impls):  # is_error written as the text "true" / "false" on every result
    results = []
    for block in _calls(content):
        failed = False
        try:
            text = _text(impls[block.name](**block.input))
        except Exception as err:
            text, failed = f"error: {err}", True
        results.append(
            {"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": str(failed).lower()}
        )
    return results


def tools_error_object_as_content(content, impls):  # the exception itself handed over as the content
    results = []
    for block in _calls(content):
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": err, "is_error": True})
    return results


def tools_id_from_the_name(content, impls):  # the result points at the tool's name, not at the call
    results = []
    for block in _calls(content):
        try:
            output = _text(impls[block.name](**block.input))
            results.append({"type": "tool_result", "tool_use_id": block.name, "content": output})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.name, "content": str(err), "is_error": True})
    return results


def tools_stop_at_the_first_failure(content, impls):
    # 失敗したらそこで打ち切る（残りの呼び出しには結果を返さない）
    results = []
    for block in _calls(content):
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
            break
    return results


def tools_dict_as_text_block(content, impls):  # the output wrapped in a text block, a dict left a dict
    results = []
    for block in _calls(content):
        try:
            output = impls[block.name](**block.input)
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": [{"type": "text", "text": output}]}
            )
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


# --- run_agent, the bare loop (lesson 2) ----------------------------------------------------------------
def agent_results_as_the_assistant(client, user_input, tools, impls):  # "the results are the assistant's work"
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "assistant", "content": _run(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_thinking_left_out(client, user_input, tools, impls):  # only text and tool_use kept: "thinking is noise"
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        kept = [b for b in response.content if b.type in ("text", "tool_use")]
        messages.append({"role": "assistant", "content": kept})
        messages.append({"role": "user", "content": _run(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_history_of_the_last_turn(client, user_input, tools, impls):
    # 毎ターン、最初の依頼と直前のやりとりだけを送る（トークンの節約のつもり）
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        results = _run(response.content, impls)
        messages = [
            messages[0],
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": results},
        ]
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def _run(content, impls):
    results = []
    for block in _calls(content):
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


# --- next_step (lesson 3) --------------------------------------------------------------------------
def step_pause_runs_the_tools(response):  # pause_turn read as "the model wants its tools"
    if response.stop_reason in ("tool_use", "pause_turn"):
        return "run_tools"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


def step_refusal_sent_again(response):  # a refusal asked again: "maybe it says yes this time"
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn" | "refusal":
            return "resend"
        case "end_turn" | "stop_sequence":
            return "finish"
        case _:
            return "stop"


def step_by_the_content(response):  # decided by the blocks, not by stop_reason
    if any(b.type == "tool_use" for b in response.content):
        return "run_tools"
    return "finish"


def step_window_resent(response):
    # コンテキストが一杯なら、もう一度送れば続きが来るはず
    table = {
        "tool_use": "run_tools",
        "pause_turn": "resend",
        "model_context_window_exceeded": "resend",
        "end_turn": "finish",
        "stop_sequence": "finish",
    }
    return table.get(response.stop_reason, "stop")


# --- signature_of (lesson 4) ------------------------------------------------------------------------
def sig_names_only(content):  # the names alone: read_file twice with other paths looks the same
    return ",".join(sorted(b.name for b in _calls(content)))


def sig_with_the_thinking(content):  # the whole turn as JSON, thinking included: it differs every turn
    return json.dumps([b.model_dump() for b in content if b.type != "text"], sort_keys=True, ensure_ascii=False)


def sig_thinking_and_calls(content):  # the thinking's words kept beside each call: "what it meant to do"
    thinking = " ".join(b.thinking for b in content if b.type == "thinking")
    calls = sorted(f"{b.name}{json.dumps(b.input, sort_keys=True)}" for b in _calls(content))
    return thinking + " => " + ";".join(calls)


def sig_first_call(content):  # only the first call: a second call changed is not seen
    first = next((b for b in content if b.type == "tool_use"), None)
    return "" if first is None else f"{first.name}:{json.dumps(first.input, sort_keys=True)}"


# --- run_tool_uses (lesson 5) -------------------------------------------------------------------------
def uses_asks_and_runs_anyway(content, impls, approve):  # the answer logged, never obeyed
    results = []
    for block in _calls(content):
        if block.name in HIGH_IMPACT:
            approved = approve(block.name, block.input)
            print(f"{block.name}: {'承認' if approved else '拒否'}")
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_denial_flag_as_text(content, impls, approve):  # is_error as the string "true" on a denial
    results = []
    for block in _calls(content):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": "denied", "is_error": "true"})
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_high_impact_by_prefix(content, impls, approve):  # "a tool that writes starts with write_"
    results = []
    for block in _calls(content):
        if block.name.startswith(("write", "delete")) and not approve(block.name, block.input):
            results.append(_result(block, "denied", True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_harmless_first(content, impls, approve):  # the harmless tools run first, then the ones asked about
    calls = _calls(content)
    ordered = [b for b in calls if b.name not in HIGH_IMPACT] + [b for b in calls if b.name in HIGH_IMPACT]
    results = []
    for block in ordered:
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_result(block, "denied", True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


# --- stop_message (lesson 7) -----------------------------------------------------------------------------
def stop_pause_reported(response):  # pause_turn told to the person as a stop
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason in ("refusal", "max_tokens", "model_context_window_exceeded", "pause_turn"):
        return f"止まりました（{response.stop_reason}）: {text}"
    return None


def stop_cut_without_the_text(response):  # the cut answer said, what was written dropped
    if response.stop_reason == "refusal":
        details = response.stop_details
        return f"断られました: {(details and details.explanation) or '説明なし'}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return "The answer was cut off."
    return None


def stop_refusal_only(response):  # only a refusal stops: a cut answer goes on quietly
    if response.stop_reason != "refusal":
        return None
    details = response.stop_details
    category = getattr(details, "category", None) or "none"
    return f"Refused ({category}): {getattr(details, 'explanation', None) or 'no explanation'}"


WRONG_ROUND_20 = [
    # (piece, the wrong function, the point that must catch it, its hint key)
    ("run_tools", tools_is_error_as_words, 3, "lesson.rule.is_error_text"),
    ("run_tools", tools_error_object_as_content, 3, "lesson.l2.run_tools.not_text"),
    ("run_tools", tools_id_from_the_name, 1, "lesson.l2.run_tools.ids"),
    ("run_tools", tools_stop_at_the_first_failure, 3, "lesson.l2.run_tools.stopped_early"),
    ("run_tools", tools_dict_as_text_block, 2, "lesson.l2.run_tools.not_json"),
    ("run_agent", agent_results_as_the_assistant, 2, "lesson.l2.results_in_user"),
    ("run_agent", agent_thinking_left_out, 2, "lesson.l2.keep_thinking"),
    ("run_agent", agent_history_of_the_last_turn, 2, "lesson.history_trimmed"),
    ("next_step", step_pause_runs_the_tools, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", step_refusal_sent_again, 3, "lesson.l3.next_step.refusal"),
    ("next_step", step_by_the_content, 3, "lesson.l3.next_step.max_tokens"),  # a cut call run
    ("next_step", step_window_resent, 3, "lesson.l3.next_step.model_context_window_exceeded"),
    ("signature_of", sig_names_only, 2, "lesson.l4.signature.collides"),
    ("signature_of", sig_with_the_thinking, 1, "lesson.l4.signature.ids"),  # the ids first, thinking aside
    ("signature_of", sig_thinking_and_calls, 1, "lesson.l4.signature.text"),
    ("signature_of", sig_first_call, 2, "lesson.l4.signature.one_call"),
    ("run_tool_uses", uses_asks_and_runs_anyway, 2, "lesson.l5.ran_anyway"),
    ("run_tool_uses", uses_denial_flag_as_text, 2, "lesson.rule.is_error_text"),
    ("run_tool_uses", uses_high_impact_by_prefix, 1, "lesson.l5.not_asked"),
    ("run_tool_uses", uses_harmless_first, 3, "lesson.l5.results_order"),
    ("stop_message", stop_pause_reported, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_cut_without_the_text, 3, "lesson.l7.stop_message.lost_text"),
    ("stop_message", stop_refusal_only, 3, "lesson.l7.stop_message.silent"),
]


# --- right ones, in other styles ------------------------------------------------------------------------
def tools_right_dispatch_comprehension(content, impls):  # a comprehension over a helper that never raises
    def one(block):
        try:
            return _result(block, _text(impls[block.name](**block.input)))
        except Exception as err:
            return _result(block, f"Tool failed: {err}", True)

    return [one(b) for b in content if b.type == "tool_use"]


def step_right_match(response):
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn":
            return "resend"  # the server tool paused: send the content back as it is
        case "end_turn" | "stop_sequence":
            return "finish"
        case _:
            return "stop"  # max_tokens, refusal, a window full, anything new


def sig_right_hashlib(content):  # a digest of the sorted calls, whole (not cut short)
    parts = sorted(json.dumps([b.name, b.input], sort_keys=True, ensure_ascii=False) for b in _calls(content))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def uses_right_reduce(content, impls, approve):  # functools.reduce, one result per call in call order
    def add(results, block):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            return [*results, _result(block, "The person said no, so it was not run.", True)]
        try:
            return [*results, _result(block, str(impls[block.name](**block.input)))]
        except Exception as err:
            return [*results, _result(block, f"failed: {err}", True)]

    return reduce(add, _calls(content), [])


def stop_right_getattr(response):  # getattr throughout: stop_details may be missing or None
    text = "".join(getattr(b, "text", "") for b in response.content if b.type == "text")
    reason = response.stop_reason
    if reason == "refusal":
        details = getattr(response, "stop_details", None)
        category = getattr(details, "category", None) or "no category"
        explanation = getattr(details, "explanation", None) or "no explanation given"
        return f"The model declined ({category}): {explanation}"
    if reason in ("max_tokens", "model_context_window_exceeded"):
        return f"The answer was cut off ({reason}). What it wrote: {text}"
    return None


RIGHT_ROUND_20 = [
    ("run_tools", tools_right_dispatch_comprehension),
    ("next_step", step_right_match),
    ("signature_of", sig_right_hashlib),
    ("run_tool_uses", uses_right_reduce),
    ("stop_message", stop_right_getattr),
]
