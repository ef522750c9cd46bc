"""Round nineteen of a learner's answers to the pieces of notebooks 01 to 06 (``run_tools``, the bare
``run_agent``, ``next_step``, ``signature_of``, ``run_tool_uses``, ``read_file``, ``stop_message``), each
wrong one with the point that must catch it and the hint that must name it; and right answers in other
styles (recursion, generators, dict dispatch, a class with early returns, pathlib).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import ClassVar

from harness_lab.lessons.lesson5 import HIGH_IMPACT

MODEL = "claude-sonnet-5"


def _result(block, text, error=False):
    result = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    return {**result, "is_error": True} if error else result


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


# --- run_tools (lesson 2) --------------------------------------------------------------------------
def tools_by_name_in_a_dict(content, impls):  # one result per tool name: two calls of one tool collapse
    by_name = {}
    for block in content:
        if block.type == "tool_use":
            try:
                by_name[block.name] = _result(block, _text(impls[block.name](**block.input)))
            except Exception as err:
                by_name[block.name] = _result(block, f"失敗: {err}", True)
    return list(by_name.values())


def tools_dispatch_with_a_default(content, impls):  # .get with a stand-in: an unknown tool "succeeds"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        impl = impls.get(block.name, lambda **_: "unknown tool")
        try:
            results.append(_result(block, _text(impl(**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def tools_ascii_json(content, impls):  # json.dumps with its default: Japanese comes back as \\uXXXX escapes
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(_result(block, json.dumps(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def tools_right_recursion(content, impls):  # one block at a time, recursively
    if not content:
        return []
    block, rest = content[0], content[1:]
    if block.type != "tool_use":
        return tools_right_recursion(rest, impls)
    try:
        head = _result(block, _text(impls[block.name](**block.input)))
    except Exception as err:  # 失敗もモデルへの知らせ
        head = _result(block, f"失敗しました: {err}", True)
    return [head, *tools_right_recursion(rest, impls)]


# --- run_agent (lesson 2, the bare loop) -------------------------------------------------------------
def agent_reason_with_a_dash(client, user_input, tools, impls):  # "tool-use": the loop never runs a tool
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool-use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": tools_right_recursion(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_right_generator_of_texts(client, user_input, tools, impls):  # a for over itertools-style count
    messages = [{"role": "user", "content": user_input}]
    while True:
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        if response.stop_reason != "tool_use":
            return "".join(text for text in (getattr(b, "text", "") for b in response.content) if text)
        messages = [
            *messages,  # a new list each turn, and that list is the one sent
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": tools_right_recursion(response.content, impls)},
        ]


# --- next_step (lesson 3) ----------------------------------------------------------------------------
def step_pause_read_as_an_end(response):  # pause_turn put with the endings
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason in ("end_turn", "stop_sequence", "pause_turn"):
        return "finish"
    return "stop"


def step_end_turn_with_a_dash(response):  # "end-turn": every answer is read as a stop
    return {"tool_use": "run_tools", "pause_turn": "resend", "end-turn": "finish", "stop_sequence": "finish"}.get(
        response.stop_reason, "stop"
    )


class _Decider:
    """next_step as a class: an answer with no text is taken for a failure."""

    def __call__(self, response):
        reason = response.stop_reason
        if reason == "tool_use":
            return "run_tools"
        if reason == "pause_turn":
            return "resend"
        if reason in ("end_turn", "stop_sequence"):
            has_text = any(b.type == "text" and b.text for b in response.content)
            return "finish" if has_text else "stop"
        return "stop"


def step_empty_answer_stops(response):  # the class called per response
    return _Decider()(response)


def step_refusal_finishes(response):  # a refusal is "the model's answer", so it finishes
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn":
            return "resend"
        case "end_turn" | "stop_sequence" | "refusal":
            return "finish"
        case _:
            return "stop"


class _Steps:
    """Early returns, one per family of stop reasons."""

    GO_ON: ClassVar[dict[str, str]] = {"tool_use": "run_tools", "pause_turn": "resend"}
    ENDINGS = frozenset({"end_turn", "stop_sequence"})

    @classmethod
    def of(cls, response):
        if response.stop_reason in cls.GO_ON:
            return cls.GO_ON[response.stop_reason]
        if response.stop_reason in cls.ENDINGS:
            return "finish"
        return "stop"  # max_tokens, refusal, まだ知らない値も止める


def step_right_class_method(response):
    return _Steps.of(response)


# --- signature_of (lesson 4) -------------------------------------------------------------------------
def sig_str_of_the_input(content):  # str(dict) keeps the key order the model wrote
    return ";".join(sorted(f"{b.name}:{b.input}" for b in content if b.type == "tool_use"))


def sig_by_the_ids(content):  # the tool_use ids: new in every response, so a repeat never matches
    return ",".join(sorted(b.id for b in content if b.type == "tool_use"))


def sig_in_call_order(content):  # canonical JSON per call, but kept in the order the model called them
    return json.dumps(
        [{"name": b.name, "input": b.input} for b in content if b.type == "tool_use"],
        sort_keys=True,
        ensure_ascii=False,
    )


def sig_right_generator(content):  # a generator of canonical texts, sorted and joined
    calls = (
        json.dumps({"name": b.name, "input": b.input}, sort_keys=True, ensure_ascii=False)
        for b in content
        if b.type == "tool_use"
    )
    return "\n".join(sorted(calls))


# --- run_tool_uses (lesson 5) ------------------------------------------------------------------------
def uses_refuses_only_no_words(content, impls, approve):  # only False or "no" refuses: None runs the tool
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and approve(block.name, block.input) in (False, "no", "n"):
            results.append(_result(block, "拒否されました", True))
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_asks_every_tool(content, impls, approve):  # "safer to ask about everything"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if not approve(block.name, block.input):
            results.append(_result(block, "拒否されました", True))
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_runs_then_asks(content, impls, approve):  # the colleague's wiring: ask after running
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = _text(impls[block.name](**block.input))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_result(block, "拒否されました", True))
        else:
            results.append(_result(block, output))
    return results


def uses_right_dispatch(content, impls, approve):  # a dict of handlers: refuse, or run
    def refuse(block):
        return _result(block, "承認されなかったので実行していません", True)

    def run(block):
        try:
            return _result(block, _text(impls[block.name](**block.input)))
        except Exception as err:
            return _result(block, f"失敗: {err}", True)

    def decide(block):
        if block.name not in HIGH_IMPACT:
            return "run"
        return "run" if approve(block.name, block.input) is True else "refuse"

    handlers = {"run": run, "refuse": refuse}
    return [handlers[decide(b)](b) for b in content if b.type == "tool_use"]


# --- read_file (lesson 6) ----------------------------------------------------------------------------
def read_abspath_only(path, root="."):  # abspath folds ".." but follows no link
    base = os.path.abspath(root)
    target = os.path.abspath(os.path.join(base, path))
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(f"{path} はルートの外です")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_string_prefix(path, root="."):  # startswith on the text: project-secrets starts like project
    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if not target.startswith(base):
        raise PermissionError(f"{path} はルートの外です")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_right_pathlib(path, root="."):  # resolve() and is_relative_to: path parts, links followed
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(f"{path} is outside the project")
    return target.read_text(encoding="utf-8")[:2000]


# --- stop_message (lesson 7, notebook 06) --------------------------------------------------------------
def stop_max_token_typo(response):  # "max_token": a cut answer goes on quietly
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        details = response.stop_details
        return f"断られました（{getattr(details, 'category', None) or '分類なし'}）: {getattr(details, 'explanation', None) or '説明なし'}"
    if response.stop_reason in ("max_token", "model_context_window_exceeded"):
        return f"{response.stop_reason} で止まりました: {text}"
    return None


def stop_details_formatted_whole(response):  # the details' fields put in as they are: None shows as "None"
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        details = response.stop_details
        return f"Refused ({getattr(details, 'category', None)}): {getattr(details, 'explanation', None)}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"Stopped by {response.stop_reason}: {text}"
    return None


def stop_right_table(response):  # a dict of messages for the cut-off reasons, early returns
    text = "".join(b.text for b in response.content if b.type == "text")
    cut = {"max_tokens": "出力の上限 max_tokens", "model_context_window_exceeded": "コンテキストウィンドウの上限"}
    if response.stop_reason in cut:
        return f"{cut[response.stop_reason]}で止まりました（{response.stop_reason}）。途中までの答え: {text}"
    if response.stop_reason != "refusal":
        return None
    details = response.stop_details
    parts = [getattr(details, "category", None), getattr(details, "explanation", None)]
    return "モデルが断りました: " + ("、".join(p for p in parts if p) or "理由の説明なし")


WRONG_ROUND_19 = [
    # (piece, the wrong function, the point that must catch it (1-based, in the piece's list), its hint key)
    ("run_tools", tools_by_name_in_a_dict, 1, "lesson.l2.run_tools.by_name"),
    ("run_tools", tools_dispatch_with_a_default, 3, "lesson.l2.run_tools.unknown_name"),
    ("run_tools", tools_ascii_json, 2, "lesson.l2.run_tools.ascii"),
    ("run_agent", agent_reason_with_a_dash, 2, "lesson.l2.run_agent.requests"),  # "go on while stop_reason is tool_use"
    ("next_step", step_pause_read_as_an_end, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", step_end_turn_with_a_dash, 2, "lesson.l3.next_step.end_turn"),
    ("next_step", step_empty_answer_stops, 2, "lesson.l3.next_step.empty_end_turn"),
    ("next_step", step_refusal_finishes, 3, "lesson.l3.next_step.refusal"),
    ("signature_of", sig_str_of_the_input, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_by_the_ids, 1, "lesson.l4.signature.ids"),
    ("signature_of", sig_in_call_order, 3, "lesson.l4.signature.call_order"),
    ("run_tool_uses", uses_refuses_only_no_words, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", uses_asks_every_tool, 3, "lesson.l5.asked_harmless"),
    ("run_tool_uses", uses_runs_then_asks, 1, "lesson.l5.ran_before_asking"),
    ("read_file", read_abspath_only, 3, "lesson.l6.read_file.link"),
    ("read_file", read_string_prefix, 2, "lesson.l6.read_file.sibling"),
    ("stop_message", stop_max_token_typo, 3, "lesson.l7.stop_message.silent"),
    ("stop_message", stop_details_formatted_whole, 2, "lesson.l7.stop_message.shows_none"),
]
RIGHT_ROUND_19 = [
    ("run_tools", tools_right_recursion),
    ("run_agent", agent_right_generator_of_texts),
    ("next_step", step_right_class_method),
    ("signature_of", sig_right_generator),
    ("run_tool_uses", uses_right_dispatch),
    ("read_file", read_right_pathlib),
    ("stop_message", stop_right_table),
]
