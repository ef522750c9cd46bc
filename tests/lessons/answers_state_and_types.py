"""Wrong answers that keep state between calls, read the wrong field or the wrong type, or get the right
result by accident; each with the point that must catch it and the hint that must name it. And right
answers in styles the references do not use.

Kept state: a results list or a history as a default argument, a yes that edits HIGH_IMPACT, a turn count
in a module variable. Wrong fields and types: the budget from input and cache reads, or from the last
response; the stop cause in Japanese; a generator where a list is due; an error returned as a value.
By accident: str() with its quotes swapped reads as JSON until a value is True or None; a loop that
finishes on end_turn alone passed while no probe ended at a stop sequence.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tests.lessons.answers6 import variant

_HIGH = {"write_file", "http_post", "delete_file"}  # the learner's own copy: the lesson's set stays untouched


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def _refused(block):
    return {"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": "ユーザーが拒否しました。"}


def _ran(block, impls):
    try:
        return {"type": "tool_result", "tool_use_id": block.id, "content": str(impls[block.name](**block.input))}
    except Exception as err:
        return {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True}


# --- next_step, signature_of -------------------------------------------------------------------
def next_step_end_turn_only(response):  # a stop sequence is a stop here
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason == "pause_turn":
        return "resend"
    return "finish" if reason == "end_turn" else "stop"


def signature_of_sorted_items(content):  # the top level sorted, a nested dict left in the model's order
    return " | ".join(sorted(f"{b.name}{sorted(b.input.items())}" for b in content if b.type == "tool_use"))


def signature_digest(content):  # right: a digest of the sorted calls is a signature too
    parts = sorted(json.dumps([b.name, b.input], sort_keys=True) for b in content if b.type == "tool_use")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


# --- run_tools ---------------------------------------------------------------------------------
def run_tools_default_list(content, impls, results=[]):  # noqa: B006 (the slip itself)
    for block in content:
        if block.type == "tool_use":
            try:
                out = _text(impls[block.name](**block.input))
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": out})
            except Exception as err:
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": True})
    return results


def run_tools_generator(content, impls):
    for block in content:
        if block.type == "tool_use":
            try:
                yield {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": _text(impls[block.name](**block.input)),
                }
            except Exception as err:
                yield {"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": True}


def run_tools_failure_as_empty_output(content, impls):  # the exception swallowed: "" reads as a tool's output
    results = []
    for block in content:
        if block.type == "tool_use":
            try:
                out = _text(impls[block.name](**block.input))
            except Exception:
                out = ""
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": out})
    return results


def run_tools_repr_quoted(content, impls):  # str() with ' made ": JSON by accident
    results = []
    for block in content:
        if block.type == "tool_use":
            try:
                out = impls[block.name](**block.input)
                text = out if isinstance(out, str) else str(out).replace("'", '"')
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
            except Exception as err:
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": True})
    return results


def run_tools_text_blocks(content, impls):  # right: content as a list of text blocks, is_error always set
    results = []
    for block in (b for b in content if b.type == "tool_use"):
        try:
            text, failed = _text(impls[block.name](**block.input)), False
        except Exception as err:
            text, failed = f"失敗: {err}", True
        results.append(
            {
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": [{"type": "text", "text": text}],
                "is_error": failed,
            }
        )
    return results


# --- run_tool_uses (lesson 5) ------------------------------------------------------------------
def approval_remembered_in_high_impact(content, impls, approve):  # a yes takes the tool off the list for good
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in _HIGH:
            if not approve(block.name, block.input):
                results.append(_refused(block))
                continue
            _HIGH.discard(block.name)
        results.append(_ran(block, impls))
    return results


def approval_error_lets_the_mild_through(content, impls, approve):  # fails open on anything but delete_file
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in {"write_file", "http_post", "delete_file"}:
            try:
                ok = approve(block.name, block.input)
            except Exception:
                ok = block.name != "delete_file"
            if not ok:
                results.append(_refused(block))
                continue
        results.append(_ran(block, impls))
    return results


def approval_read_as_text(content, impls, approve):  # str(None) is not "false": an answerless approval runs
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if (
            block.name in {"write_file", "http_post", "delete_file"}
            and str(approve(block.name, block.input)).lower() == "false"
        ):
            results.append(_refused(block))
            continue
        results.append(_ran(block, impls))
    return results


def approval_asked_with_json(content, impls, approve):  # the input handed over as JSON text
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in {"write_file", "http_post", "delete_file"} and not approve(
            block.name, json.dumps(block.input, ensure_ascii=False)
        ):
            results.append(_refused(block))
            continue
        results.append(_ran(block, impls))
    return results


def approval_yes_words(content, impls, approve):  # right: only True or a spelt-out yes runs
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in {"write_file", "http_post", "delete_file"} and approve(block.name, block.input) not in (
            True,
            "yes",
            "y",
            "はい",
        ):
            results.append(_refused(block))
            continue
        results.append(_ran(block, impls))
    return results


# --- read_file, stop_message -------------------------------------------------------------------
def read_file_returns_refusal(path, root="."):  # a refusal returned as a value reads as the file's text
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        return f"PermissionError: {path} はルートの外です"
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_file_common_path(path, root="."):  # right: os.path.realpath and commonpath
    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read()[:2000]


def stop_message_empty_to_go_on(response):  # "" is falsy, but it is a message: None says "no stop"
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        details = response.stop_details
        category = getattr(details, "category", None) or "分類なし"
        return f"断られました（{category}）: {getattr(details, 'explanation', None) or '説明なし'}"
    if response.stop_reason in ("model_context_window_exceeded", "max_tokens"):
        return f"{response.stop_reason} で切れました: {text}"
    return ""


def stop_message_by_match(response):  # right: a match on the response's attributes
    text = "".join(b.text for b in response.content if b.type == "text")
    match response:
        case object(stop_reason="refusal"):
            details = response.stop_details
            parts = [p for p in (getattr(details, "category", None), getattr(details, "explanation", None)) if p]
            return "refusal: " + (" / ".join(parts) or "理由の説明なし")
        case object(stop_reason="max_tokens" | "model_context_window_exceeded" as why):
            return f"{why}: {text}"
    return None


WRONG_STATE = [
    ("next_step", next_step_end_turn_only, 2, "lesson.l3.next_step.stop_sequence"),
    ("signature_of", signature_of_sorted_items, 1, "lesson.l4.signature.key_order"),
    ("run_tools", run_tools_default_list, 1, "lesson.l2.run_tools.kept_results"),
    ("run_tools", run_tools_generator, 1, "lesson.rule.generator"),  # yield named as the cause
    ("run_tools", run_tools_failure_as_empty_output, 3, "lesson.l2.run_tools.not_error"),
    ("run_tools", run_tools_repr_quoted, 2, "lesson.l2.run_tools.repr_output"),
    ("run_tool_uses", approval_remembered_in_high_impact, 2, "lesson.l5.yes_reused"),
    ("run_tool_uses", approval_error_lets_the_mild_through, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", approval_read_as_text, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", approval_asked_with_json, 1, "lesson.l5.approve_args"),
    ("read_file", read_file_returns_refusal, 2, "lesson.l6.read_file.returned_refusal"),
    ("stop_message", stop_message_empty_to_go_on, 4, "lesson.l7.stop_message.not_none"),
]
RIGHT_STATE = [
    ("signature_of", signature_digest),
    ("run_tools", run_tools_text_blocks),
    ("run_tool_uses", approval_yes_words),
    ("read_file", read_file_common_path),
    ("stop_message", stop_message_by_match),
]

# --- run_agent (lesson 6) ----------------------------------------------------------------------
INPUT_AND_READS = "response.usage.input_tokens + (response.usage.cache_read_input_tokens or 0)"
USAGE = "response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens"
COUNTED_IN_A_GLOBAL = variant(
    ("def run_agent(", "TURNS = 0\n\n\ndef run_agent("),
    (
        "    turns, tokens_used, last_signature = 0, 0, None\n",
        "    global TURNS\n    turns, tokens_used, last_signature = 0, 0, None\n",
    ),
    ("        if turns >= MAX_TURNS:", "        if TURNS >= MAX_TURNS:"),
    ("        turns += 1\n", "        turns += 1\n        TURNS += 1\n"),
)
WRONG_RUN_AGENT_STATE = [
    # finishes on end_turn alone: a stop sequence, the other way a model ends with its answer, is stopped
    (
        variant(('    if step == "finish":', '    if response.stop_reason == "end_turn":')),
        2,
        "lesson.l6.run_agent.finish_as_stop",
    ),
    (COUNTED_IN_A_GLOBAL, 3, "lesson.l6.run_agent.turns_carried"),
    # the spin told by what the tools returned: new calls that read the same text look like one call
    (
        variant(
            (
                "            signature = signature_of(response.content)\n"
                "            if signature == last_signature:\n"
                '                return lessons.stopped("no_progress", "空回り", turns, tokens_used)\n'
                "            last_signature = signature\n"
                "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n",
                "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
                '            signature = json.dumps([r["content"] for r in results], ensure_ascii=False)\n'
                "            if signature == last_signature:\n"
                '                return lessons.stopped("no_progress", "空回り", turns, tokens_used)\n'
                "            last_signature = signature\n",
            )
        ),
        3,
        "lesson.l6.run_agent.no_progress_on_new_calls",
    ),
    # input and cache reads: the cache writes and the output left out (point 1 was told "the cache", point 4
    # "input_tokens alone"), named on both points
    (variant((USAGE, INPUT_AND_READS)), 1, "lesson.l6.run_agent.budget_field_omitted"),
    (variant((USAGE, INPUT_AND_READS)), 4, "lesson.l6.run_agent.budget_field_omitted"),
    (variant(("tokens_used += " + USAGE, "tokens_used = " + USAGE)), 4, "lesson.l6.run_agent.budget_last_only"),
    # counts the ceiling the request asked for, not what the response used
    (variant(("tokens_used += " + USAGE, "tokens_used += 1024")), 4, "lesson.l6.run_agent.budget_max_tokens"),
    # the carried count stops the budget check's run too: the same cause, not an uncounted budget
    (COUNTED_IN_A_GLOBAL, 4, "lesson.l6.run_agent.turns_carried"),
    (
        variant(("if tokens_used >= TOKEN_BUDGET:", "if " + USAGE + " >= TOKEN_BUDGET:")),
        4,
        "lesson.l6.run_agent.budget_not_total",
    ),
    (variant(("if turns >= MAX_TURNS:", "if turns + 1 >= MAX_TURNS:")), 3, "lesson.l6.run_agent.after_increment"),
    (
        variant(('lessons.stopped("max_turns", "上限"', 'lessons.stopped("最大ターン数", "上限"')),
        3,
        "lesson.l6.run_agent.unknown_cause",
    ),
    (
        variant(("signature = signature_of(response.content)", "signature = response.stop_reason")),
        1,
        "lesson.l6.run_agent.normal_no_progress",
    ),
    (variant(("yield lessons.turn(turns, response, results)", "yield results")), 1, "lesson.l6.run_agent.no_yield"),
]
RIGHT_RUN_AGENT_STATE = [
    # while True, one request per lap at its top, the decision first
    """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    turns = tokens_used = 0
    last_signature = None
    while True:
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens
        step = next_step(response)
        if step == "finish":
            return lessons.finished(response, turns, tokens_used)
        if step == "stop":
            return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)
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
            results = run_tool_uses(response.content, tool_impls, approve or (lambda *_: False))
        messages += [{"role": "assistant", "content": response.content}]
        messages += [{"role": "user", "content": results}] if results else []
        yield lessons.turn(turns, response, results)
""",
]
