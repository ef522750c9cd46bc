"""Round eighteen of a learner's answers to the pieces of notebooks 01 to 06 (``run_tools``, the bare
``run_agent``, ``next_step``, ``signature_of``, ``run_tool_uses``, ``read_file``, ``stop_message``), each
wrong one with the point that must catch it and the hint that must name it; and right answers in other
styles (while loops, walrus, match, helper functions and classes, early returns).

None passed; two got another cause's hint. A run_tools that popped its calls from the end (results in
reverse order) was also told, on points 2 and 3, that the output was wrong and the failure had no
is_error: those points read the first result as the first call's. A run_tools that answered only the
first call was told on point 3 that it stopped at the failure. Lesson 5's answer kept by tool name
(setdefault, asked every time) was told "one no does not stop the others"
(``answers_habits_gates.approval_once_per_tool`` now expects the sharper hint).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from harness_lab.lessons.lesson5 import HIGH_IMPACT

MODEL = "claude-sonnet-5"


def _result(block, text, error=False):
    result = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    return {**result, "is_error": True} if error else result


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


# --- run_tools (lesson 2) --------------------------------------------------------------------------
def tools_first_call_by_walrus(content, impls):  # only the first tool_use of the turn is answered
    if (block := next((b for b in content if b.type == "tool_use"), None)) is None:
        return []
    try:
        return [_result(block, _text(impls[block.name](**block.input)))]
    except Exception as err:
        return [_result(block, f"失敗: {err}", True)]


def tools_popped_from_the_end(content, impls):  # a while loop that pops: the results come out backwards
    pending = [b for b in content if b.type == "tool_use"]
    results = []
    while pending:
        block = pending.pop()
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def tools_helper_drops_the_flag(content, impls):  # the helper takes the flag, and never writes it
    def answer(block, text, failed):
        return {"type": "tool_result", "tool_use_id": block.id, "content": text}

    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(answer(block, _text(impls[block.name](**block.input)), False))
        except Exception as err:
            results.append(answer(block, f"エラー: {err}", True))
    return results


def tools_content_trimmed_in_place(content, impls):  # the history's assistant turn loses its text and thinking
    content[:] = [b for b in content if b.type == "tool_use"]
    results = []
    for block in content:
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def tools_right_while_index(content, impls):  # a while over the indices, English comments
    results, i = [], 0
    while i < len(content):
        block = content[i]
        i += 1
        if block.type != "tool_use":
            continue  # text and thinking blocks get no result
        try:
            output = impls[block.name](**block.input)
        except Exception as err:  # a failed tool is news for the model, not the end of the loop
            results.append(_result(block, f"failed: {err}", True))
        else:
            results.append(_result(block, _text(output)))
    return results


# --- run_agent (lesson 2, the bare loop) -------------------------------------------------------------
def agent_history_as_a_default(client, user_input, tools, impls, messages=[]):  # noqa: B006  # the mistake
    messages.append({"role": "user", "content": user_input})
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": tools_right_while_index(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    return "".join(b.text for b in response.content if b.type == "text")


def agent_right_walrus(client, user_input, tools, impls):  # the request in the while's own condition
    messages = [{"role": "user", "content": user_input}]

    def ask():
        return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while (response := ask()).stop_reason == "tool_use":
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": tools_right_while_index(response.content, impls)},
        ]
    return "".join(b.text for b in response.content if b.type == "text")


# --- next_step (lesson 3) ----------------------------------------------------------------------------
def step_match_cut_off_finishes(response):  # a match that puts max_tokens with the endings
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn":
            return "resend"
        case "end_turn" | "stop_sequence" | "max_tokens":
            return "finish"
        case _:
            return "stop"


def step_table_defaults_to_finish(response):  # a dict of the known values; anything else read as an ending
    return {"tool_use": "run_tools", "pause_turn": "resend", "max_tokens": "stop", "refusal": "stop"}.get(
        response.stop_reason, "finish"
    )


def step_right_table(response):  # a dict of the values that go on or finish; the rest stop
    return {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}.get(
        response.stop_reason, "stop"
    )


# --- signature_of (lesson 4) -------------------------------------------------------------------------
def sig_items_sorted_at_the_top(content):  # sorted(input.items()): a nested dict keeps its key order
    return " | ".join(sorted(f"{b.name}{sorted(b.input.items())}" for b in content if b.type == "tool_use"))


def sig_names_by_set_comprehension(content):  # the tool names alone, in a set
    return ",".join(sorted({b.name for b in content if b.type == "tool_use"}))


class _Signer:
    """One call as text: its name and its input as canonical JSON."""

    def __init__(self, block):
        self.text = f"{block.name}:{json.dumps(block.input, sort_keys=True, separators=(',', ':'), ensure_ascii=False)}"

    def __lt__(self, other):
        return self.text < other.text


def sig_right_class(content):  # a small class per call, sorted by its text
    return "\n".join(s.text for s in sorted(_Signer(b) for b in content if b.type == "tool_use"))


# --- run_tool_uses (lesson 5) ------------------------------------------------------------------------
def uses_suppressed_approval(content, impls, approve):  # contextlib.suppress: an approve that raises is a yes
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        allowed = True
        if block.name in HIGH_IMPACT:
            with contextlib.suppress(Exception):
                allowed = approve(block.name, block.input)
        if not allowed:
            results.append(_result(block, "拒否されました", True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_no_only_when_false(content, impls, approve):  # == False: an empty answer is taken for a yes
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and approve(block.name, block.input) == False:  # noqa: E712  # the mistake
            results.append(_result(block, "拒否されました", True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def uses_returns_at_a_no(content, impls, approve):  # an early return at the first no: the later calls unanswered
    results = []
    for block in (b for b in content if b.type == "tool_use"):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            return [*results, _result(block, "拒否されました", True)]
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


class _Gate:
    """Valve 4 as an object: ask about a high-impact call, run the rest."""

    def __init__(self, impls, approve):
        self.impls, self.approve = impls, approve

    def __call__(self, block):
        if block.name in HIGH_IMPACT and self.approve(block.name, block.input) is not True:
            return _result(block, "承認されなかったので実行していません", True)
        try:
            return _result(block, str(self.impls[block.name](**block.input)))
        except Exception as err:
            return _result(block, f"失敗: {err}", True)


def uses_right_class(content, impls, approve):  # a gate object called per block, in a comprehension
    gate = _Gate(impls, approve)
    return [gate(b) for b in content if b.type == "tool_use"]


def uses_right_early_returns(content, impls, approve):  # one helper with early returns per call
    def handle(block):
        if block.name in HIGH_IMPACT:
            try:
                yes = approve(block.name, block.input) is True
            except Exception:  # an approval that could not be had is a no
                yes = False
            if not yes:
                return _result(block, "拒否されました", True)
        try:
            return _result(block, str(impls[block.name](**block.input)))
        except Exception as err:
            return _result(block, f"失敗: {err}", True)

    return list(map(handle, filter(lambda b: b.type == "tool_use", content)))


# --- read_file (lesson 6) ----------------------------------------------------------------------------
def read_common_prefix(path, root="."):  # os.path.commonprefix compares characters, not path parts
    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if os.path.commonprefix([base, target]) != base:  # noqa: RUF071  # the mistake
        raise PermissionError(f"{path} はルートの外です")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_dots_only(path, root="."):  # only ".." is refused: an absolute path walks out
    if ".." in Path(path).parts:
        raise PermissionError(f"{path} はルートの外です")
    with open(Path(root) / path, encoding="utf-8") as f:
        return f.read(2000)


def read_right_commonpath(path, root="."):  # realpath and commonpath: path parts, links followed
    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(f"{path} is outside the project")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


# --- stop_message (lesson 7, notebook 06) --------------------------------------------------------------
def stop_match_window_forgotten(response):  # the full window left out: it goes on quietly
    text = "".join(b.text for b in response.content if b.type == "text")
    match response.stop_reason:
        case "refusal":
            details = response.stop_details
            return f"断られました（{getattr(details, 'category', None) or '分類なし'}）: {getattr(details, 'explanation', None) or '説明なし'}"
        case "max_tokens":
            return f"max_tokens で切れました: {text}"
        case _:
            return None


def stop_right_match(response):  # a match, the partial answer kept, getattr for the details
    text = "".join(b.text for b in response.content if b.type == "text")
    match response.stop_reason:
        case "refusal":
            details = response.stop_details
            category = getattr(details, "category", None) or "no category"
            explanation = getattr(details, "explanation", None) or "no explanation given"
            return f"The model refused ({category}): {explanation}"
        case "max_tokens" | "model_context_window_exceeded" as reason:
            return f"Cut off ({reason}). The answer so far: {text}"
    return None


WRONG_ROUND_18 = [
    # (piece, the wrong function, the point that must catch it (1-based, in the piece's list), its hint key)
    ("run_tools", tools_first_call_by_walrus, 1, "lesson.l2.run_tools.too_few"),
    ("run_tools", tools_first_call_by_walrus, 3, "lesson.l2.run_tools.too_few"),  # not "stopped at the failure"
    ("run_tools", tools_popped_from_the_end, 1, "lesson.l2.run_tools.order"),
    ("run_tools", tools_helper_drops_the_flag, 3, "lesson.l2.run_tools.not_error"),
    ("run_tools", tools_content_trimmed_in_place, 4, "lesson.l2.run_tools.changed_content"),
    ("run_agent", agent_history_as_a_default, 1, "lesson.l2.run_agent.stale_history"),
    ("next_step", step_match_cut_off_finishes, 3, "lesson.l3.next_step.max_tokens_finish"),
    ("next_step", step_table_defaults_to_finish, 3, "lesson.l3.next_step.model_context_window_exceeded"),
    ("signature_of", sig_items_sorted_at_the_top, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_names_by_set_comprehension, 2, "lesson.l4.signature.collides"),
    ("run_tool_uses", uses_suppressed_approval, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", uses_no_only_when_false, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", uses_returns_at_a_no, 2, "lesson.l5.per_call"),
    ("read_file", read_common_prefix, 2, "lesson.l6.read_file.sibling"),
    ("read_file", read_dots_only, 2, "lesson.l6.read_file.escaped"),
    ("stop_message", stop_match_window_forgotten, 3, "lesson.l7.stop_message.silent"),
]
RIGHT_ROUND_18 = [
    ("run_tools", tools_right_while_index),
    ("run_agent", agent_right_walrus),
    ("next_step", step_right_table),
    ("signature_of", sig_right_class),
    ("run_tool_uses", uses_right_class),
    ("run_tool_uses", uses_right_early_returns),
    ("read_file", read_right_commonpath),
    ("stop_message", stop_right_match),
]
