"""Round sixteen of a learner's answers to lessons 2 to 5 and 7, each wrong one with the point that must
catch it and the hint that must name it; and right answers in another style.

Two used to pass. A run_tools or run_tool_uses whose ``except BaseException`` (or bare ``except:``) made
a failed result of everything caught Ctrl-C too: a person pressing it while a tool ran (KeyboardInterrupt)
saw the loop go on with an is_error result. A next_step that read notebook 06 and put ``"compaction"``
with the endings finished a run whose last response held only the summary (a compaction block).
The others are new shapes of mistakes the checks already named: a signature of argument counts, approval
asked once per turn or with the input left out, a stop message with only the last text block, the
stop_details object printed whole, "" where None was due.
"""

from __future__ import annotations

import json

from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.text import t

FINISHED = ("end_turn", "stop_sequence")


def _result(block, text, error=False):
    result = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    return {**result, "is_error": True} if error else result


def _as_text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


# next_step (lesson 3)
def next_step_compaction_finishes(response):  # notebook 06's new value read as an ending
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason == "pause_turn":
        return "resend"
    if reason in (*FINISHED, "compaction"):
        return "finish"
    return "stop"


def next_step_compaction_runs_tools(response):  # "compaction" read as the loop's own work to go on with
    reason = response.stop_reason
    if reason in ("tool_use", "compaction"):
        return "run_tools"
    if reason == "pause_turn":
        return "resend"
    return "finish" if reason in FINISHED else "stop"


def next_step_right_compaction_resent(response):  # notebook 06: after compaction, as after pause_turn, resend
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason in ("pause_turn", "compaction"):
        return "resend"
    return "finish" if reason in FINISHED else "stop"


def next_step_by_tool_blocks(response):  # a tool_use block in content, even one cut off by max_tokens
    if any(b.type == "tool_use" for b in response.content):
        return "run_tools"
    reason = response.stop_reason
    if reason == "pause_turn":
        return "resend"
    return "finish" if reason in FINISHED else "stop"


def next_step_full_window_resent(response):  # a full window read as a pause
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason in ("pause_turn", "model_context_window_exceeded"):
        return "resend"
    return "finish" if reason in FINISHED else "stop"


def next_step_right_early_returns(response):
    reason = response.stop_reason
    if reason in FINISHED:
        return "finish"
    if reason != "tool_use" and reason != "pause_turn":
        return "stop"
    return "run_tools" if reason == "tool_use" else "resend"


# signature_of (lesson 4)
def signature_of_argument_counts(content):  # how many arguments, not which
    return " | ".join(sorted(f"{b.name}({len(b.input)})" for b in content if b.type == "tool_use"))


def signature_of_right_helper(content):
    def one(block):
        return block.name + ":" + json.dumps(block.input, sort_keys=True, ensure_ascii=False)

    calls = [one(b) for b in content if b.type == "tool_use"]
    calls.sort()
    return ";".join(calls)


def signature_of_right_without_separator(content):  # each part ends with "}", so the joints stay readable
    return "".join(sorted(b.name + json.dumps(b.input, sort_keys=True) for b in content if b.type == "tool_use"))


# run_tool_uses (lesson 5)
def run_tool_uses_catches_base_exception(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_result(block, t("result.denied"), error=True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except BaseException as err:  # Ctrl-C too
            results.append(_result(block, t("result.failed", error=err), error=True))
    return results


def run_tool_uses_bare_except(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_result(block, t("result.denied"), error=True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except:  # noqa: E722  # the learner's bare except, Ctrl-C included
            results.append(_result(block, t("result.failed", error="?"), error=True))
    return results


def run_tool_uses_asks_once_per_turn(content, impls, approve):  # the first answer stands for every call
    results, allowed = [], None
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT:
            allowed = approve(block.name, block.input) if allowed is None else allowed
            if not allowed:
                results.append(_result(block, t("result.denied"), error=True))
                continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, t("result.failed", error=err), error=True))
    return results


def run_tool_uses_asks_by_name_only(content, impls, approve):  # the person never sees what would be sent
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, {}):
            results.append(_result(block, t("result.denied"), error=True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, t("result.failed", error=err), error=True))
    return results


def run_tool_uses_high_impact_by_verb(content, impls, approve):  # "send…"/"delete…" guessed from the name
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name.startswith(("send", "delete")) and not approve(block.name, block.input):
            results.append(_result(block, t("result.denied"), error=True))
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, t("result.failed", error=err), error=True))
    return results


def run_tool_uses_clears_the_input(content, impls, approve):  # "done with it": the history's call emptied
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_result(block, t("result.denied"), error=True))
            continue
        try:
            args = block.input
            results.append(_result(block, str(impls[block.name](**args))))
            args.clear()
        except Exception as err:
            results.append(_result(block, t("result.failed", error=err), error=True))
    return results


def run_tool_uses_right_helper(content, impls, approve):
    def answer(block):
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            return _result(block, t("result.denied"), error=True)
        try:
            return _result(block, str(impls[block.name](**block.input)))
        except Exception as err:
            return _result(block, t("result.failed", error=err), error=True)

    return [answer(b) for b in content if b.type == "tool_use"]


# run_tools (lesson 2)
def run_tools_catches_base_exception(content, impls):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(_result(block, _as_text(impls[block.name](**block.input))))
        except BaseException as err:  # Ctrl-C too
            results.append(_result(block, f"失敗: {err}", error=True))
    return results


def run_tools_error_type_only(content, impls):  # the exception's class, not what happened
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(_result(block, _as_text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, type(err).__name__, error=True))
    return results


def run_tools_right_comprehension(content, impls):
    def run(block):
        try:
            output = impls[block.name](**block.input)
        except Exception as err:
            return _result(block, f"error: {err}", error=True)
        return _result(block, _as_text(output))

    return [run(b) for b in content if b.type == "tool_use"]


# stop_message (lesson 7)
def _text(response):
    return "".join(b.text for b in response.content if b.type == "text")


def _refusal(response):
    details = response.stop_details
    return f"断られました（{(details and details.category) or '分類なし'}）: {(details and details.explanation) or '説明なし'}"


def stop_message_last_text_block(response):  # a text cut in two blocks keeps only its end
    texts = [b.text for b in response.content if b.type == "text"]
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("model_context_window_exceeded", "max_tokens"):
        return f"{response.stop_reason} で切れました: {texts[-1] if texts else ''}"
    return None


def stop_message_details_printed_whole(response):  # the object's repr, None fields and all
    if response.stop_reason == "refusal":
        return f"断られました: {response.stop_details}"
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストウィンドウが一杯です: {_text(response)}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens で切れました: {_text(response)}"
    return None


def stop_message_empty_for_the_rest(response):  # "" where None was due
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストウィンドウが一杯です: {_text(response)}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens で切れました: {_text(response)}"
    return ""


def stop_message_pause_and_compaction_end(response):  # notebook 06's two pauses told as stops
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストウィンドウが一杯です: {_text(response)}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens で切れました: {_text(response)}"
    if response.stop_reason in ("pause_turn", "compaction"):
        return f"途中で止まりました: {_text(response)}"
    return None


def stop_message_answer_on_end_turn(response):  # the answer itself where None was due
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストウィンドウが一杯です: {_text(response)}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens で切れました: {_text(response)}"
    return _text(response) if response.stop_reason == "end_turn" else None


def stop_message_category_only(response):  # the category alone: the API's explanation never reaches the person
    if response.stop_reason == "refusal":
        details = response.stop_details
        return f"断られました（{(details and details.category) or '分類なし'}）"
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストウィンドウが一杯です: {_text(response)}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens で切れました: {_text(response)}"
    return None


def stop_message_one_sentence_for_both_cuts(response):  # which limit it was, lost
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("model_context_window_exceeded", "max_tokens"):
        return f"答えが途中で切れました: {_text(response)}"
    return None


def stop_message_text_as_list(response):  # the blocks' texts as a list's repr
    texts = [b.text for b in response.content if b.type == "text"]
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("model_context_window_exceeded", "max_tokens"):
        return f"{response.stop_reason} で切れました: {texts}"
    return None


def stop_message_right_helpers(response):
    cut = {"model_context_window_exceeded": "コンテキストウィンドウが一杯で", "max_tokens": "max_tokens で"}
    if response.stop_reason == "refusal":
        details = response.stop_details
        why = [x for x in (details and details.category, details and details.explanation) if x]
        return "モデルが断りました" + (": " + " / ".join(why) if why else "（理由は示されていません）")
    if response.stop_reason in cut:
        written = "\n".join(b.text for b in response.content if b.type == "text")
        return f"{cut[response.stop_reason]}答えが切れました。ここまで: {written}"
    return None


WRONG_ROUND_16 = [
    ("next_step", next_step_compaction_finishes, 3, "lesson.l3.next_step.compaction"),
    ("next_step", next_step_compaction_runs_tools, 3, "lesson.l3.next_step.compaction"),
    ("next_step", next_step_by_tool_blocks, 3, "lesson.l3.next_step.max_tokens"),
    ("next_step", next_step_full_window_resent, 3, "lesson.l3.next_step.model_context_window_exceeded"),
    ("signature_of", signature_of_argument_counts, 2, "lesson.l4.signature.collides"),
    ("run_tool_uses", run_tool_uses_catches_base_exception, 3, "lesson.rule.interrupt_caught"),
    ("run_tool_uses", run_tool_uses_bare_except, 3, "lesson.rule.interrupt_caught"),
    ("run_tool_uses", run_tool_uses_asks_once_per_turn, 1, "lesson.l5.answer_carried"),
    ("run_tool_uses", run_tool_uses_asks_by_name_only, 1, "lesson.l5.approve_args"),
    ("run_tool_uses", run_tool_uses_high_impact_by_verb, 1, "lesson.l5.not_asked"),
    ("run_tool_uses", run_tool_uses_clears_the_input, 3, "lesson.l5.changed_content"),
    ("run_tools", run_tools_catches_base_exception, 3, "lesson.rule.interrupt_caught"),
    ("run_tools", run_tools_error_type_only, 3, "lesson.l2.run_tools.no_message"),
    ("stop_message", stop_message_last_text_block, 3, "lesson.l7.stop_message.lost_text"),
    ("stop_message", stop_message_details_printed_whole, 2, "lesson.l7.stop_message.shows_none"),
    ("stop_message", stop_message_empty_for_the_rest, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_message_pause_and_compaction_end, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_message_answer_on_end_turn, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_message_category_only, 1, "lesson.l7.stop_message.no_explanation"),
    ("stop_message", stop_message_one_sentence_for_both_cuts, 3, "lesson.l7.stop_message.same_reason"),
    ("stop_message", stop_message_text_as_list, 3, "lesson.l7.stop_message.text_apart"),
]
RIGHT_ROUND_16 = [
    ("next_step", next_step_right_compaction_resent),
    ("next_step", next_step_right_early_returns),
    ("signature_of", signature_of_right_helper),
    ("signature_of", signature_of_right_without_separator),
    ("run_tool_uses", run_tool_uses_right_helper),
    ("run_tools", run_tools_right_comprehension),
    ("stop_message", stop_message_right_helpers),
]
