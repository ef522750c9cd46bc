"""Wrong answers that count, flag or compare one thing too few or one too many (a digest cut short, an
is_error as text, a denial on the wrong tools, a budget that sees one side of the usage, a stop reason
read as another), each with the hint that must name its cause, and right answers in other styles.
"""

from __future__ import annotations

import hashlib
import json

from tests.lessons.answers6 import variant
from tests.lessons.answers_capstone import RIGHT_MY_AGENT

HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def _calls(content):
    return sorted(
        f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)})" for b in content if b.type == "tool_use"
    )


# --- signature_of ----------------------------------------------------------------------------------


def sig_digest_cut_to_four(content):  # "a short id is enough to compare": 65,536 values, turns collide
    return hashlib.sha256("|".join(_calls(content)).encode()).hexdigest()[:4]


def sig_python_hash(content):  # hash() of the text, kept as a number made text
    return str(hash("|".join(_calls(content))) % 10_000)


def sig_right_md5_whole(content):  # right: a whole md5 digest of the sorted parts
    return hashlib.md5("\n".join(_calls(content)).encode(), usedforsecurity=False).hexdigest()


def sig_right_json_list(content):  # right: the (name, input) pairs as JSON, sorted by their text
    parts = [json.dumps([b.name, b.input], sort_keys=True, ensure_ascii=False) for b in content if b.type == "tool_use"]
    return "[" + ",".join(sorted(parts)) + "]"


# --- run_tools (lesson 2) --------------------------------------------------------------------------


def tools_is_error_text(content, impls):  # the flag written as the word the API prints
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = impls[block.name](**block.input)
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": "false"})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": "true"})
    return results


def tools_error_flag_on_success(content, impls):  # is_error set on every result, "so the model checks"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = impls[block.name](**block.input)
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
        except Exception as err:
            text = f"失敗: {err}"
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": True})
    return results


def tools_right_is_error_false_always(content, impls):  # right: is_error written on every result, False or True
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = impls[block.name](**block.input)
            text, failed = (output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)), False
        except Exception as err:
            text, failed = f"ツールの実行に失敗しました: {err}", True
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": failed})
    return results


# --- next_step (lesson 3) --------------------------------------------------------------------------


def step_refusal_resends(response):  # "the model said no once; ask it again"
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason in ("pause_turn", "refusal"):
        return "resend"
    return "finish" if reason in ("end_turn", "stop_sequence") else "stop"


def step_window_finishes(response):  # a full context window read as the end of the answer
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason == "pause_turn":
        return "resend"
    return "finish" if reason in ("end_turn", "stop_sequence", "model_context_window_exceeded") else "stop"


def step_right_by_dict(response):  # right: a table with "stop" for everything else
    return {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}.get(
        str(response.stop_reason), "stop"
    )


# --- run_tool_uses (lesson 5) ----------------------------------------------------------------------


def _ran(block, impls):
    try:
        return {"type": "tool_result", "tool_use_id": block.id, "content": str(impls[block.name](**block.input))}
    except Exception as err:
        return {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True}


def _refused(block, is_error=True):
    return {
        "type": "tool_result",
        "tool_use_id": block.id,
        "content": "ユーザーが拒否したため、実行していません。",
        "is_error": is_error,
    }


def approval_fails_open(content, impls, approve):  # "if the prompt breaks, don't block the work"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT:
            try:
                yes = approve(block.name, block.input)
            except Exception:
                yes = True
            if not yes:
                results.append(_refused(block))
                continue
        results.append(_ran(block, impls))
    return results


def approval_refusal_flag_as_text(content, impls, approve):  # is_error "True": a string, not the flag
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_refused(block, is_error="True"))
            continue
        results.append(_ran(block, impls))
    return results


def approval_by_prefix(content, impls, approve):  # "high-impact tools are the ones that write"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name.startswith(("write", "delete")) and not approve(block.name, block.input):
            results.append(_refused(block))
            continue
        results.append(_ran(block, impls))
    return results


def approval_asked_input_first(content, impls, approve):  # approve(input, name): the order of the arguments swapped
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.input, block.name):
            results.append(_refused(block))
            continue
        results.append(_ran(block, impls))
    return results


def approval_right_asks_first_runs_later(content, impls, approve):  # right: every question first, then the runs
    answers = {
        b.id: (b.name not in HIGH_IMPACT or approve(b.name, b.input) is True) for b in content if b.type == "tool_use"
    }
    return [_ran(b, impls) if answers[b.id] else _refused(b) for b in content if b.type == "tool_use"]


# --- stop_message (notebook 06) --------------------------------------------------------------------


def stop_silence_is_a_stop(response):  # an end_turn with no text told as a failure: "the model said nothing"
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "end_turn" and not text.strip():
        return "モデルが何も答えずに終わりました"
    if response.stop_reason == "refusal":
        d = response.stop_details
        return f"断られました（{getattr(d, 'category', None) or '分類なし'}）: {getattr(d, 'explanation', None) or '説明なし'}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason} で切れました。ここまで: {text}"
    return None


def stop_right_english_words(response):  # right: English words in the Japanese edition are still a message
    text = "".join(b.text for b in response.content if b.type == "text")
    reason, details = response.stop_reason, getattr(response, "stop_details", None)
    if reason == "refusal":
        category = getattr(details, "category", None) or "none"
        explanation = getattr(details, "explanation", None) or "no explanation"
        return f"Refused ({category}): {explanation}"
    if reason in ("max_tokens", "model_context_window_exceeded"):
        return f"Cut off by {reason}. So far: {text}"
    return None


WRONG_COUNTS = [
    ("signature_of", sig_digest_cut_to_four, 2, "lesson.l4.signature.digest"),
    ("signature_of", sig_python_hash, 2, "lesson.l4.signature.digest"),
    ("run_tools", tools_is_error_text, 3, "lesson.rule.is_error_text"),
    ("run_tools", tools_error_flag_on_success, 2, "lesson.l2.run_tools.output_flagged"),
    ("next_step", step_refusal_resends, 3, "lesson.l3.next_step.refusal"),
    ("next_step", step_window_finishes, 3, "lesson.l3.next_step.model_context_window_exceeded"),
    ("run_tool_uses", approval_fails_open, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", approval_refusal_flag_as_text, 2, "lesson.rule.is_error_text"),
    ("run_tool_uses", approval_by_prefix, 1, "lesson.l5.not_asked"),
    ("stop_message", stop_silence_is_a_stop, 4, "lesson.l7.stop_message.not_none"),
    ("run_tool_uses", approval_asked_input_first, 1, "lesson.l5.approve_args"),
]

RIGHT_COUNTS = [
    ("signature_of", sig_right_md5_whole),
    ("signature_of", sig_right_json_list),
    ("run_tools", tools_right_is_error_false_always),
    ("next_step", step_right_by_dict),
    ("run_tool_uses", approval_right_asks_first_runs_later),
    ("stop_message", stop_right_english_words),
]

# --- run_agent (lesson 6) and the capstone -----------------------------------------------------------

WRONG_RUN_AGENT_COUNTS = [
    (  # a full context window read as "send it again": the same history fills it again
        variant(
            (
                '    while step in ("run_tools", "resend"):',
                '    while step in ("run_tools", "resend") or response.stop_reason == "model_context_window_exceeded":',
            )
        ),
        2,
        "lesson.l6.run_agent.window_resent",
    ),
]

RIGHT_RUN_AGENT_COUNTS = [
    # every billed token counted, cache writes and reads too, as the package's TokenBudget does
    variant(
        (
            "response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens",
            "sum(filter(None, (response.usage.input_tokens, response.usage.cache_creation_input_tokens,"
            " response.usage.cache_read_input_tokens, response.usage.output_tokens)))",
        )
    ),
]

SEND = "        send(url, body)\n"
WRONG_MY_AGENT_COUNTS = [
    (  # "a failed post should not crash the agent": the error swallowed, "sent" said all the same
        variant(
            (SEND, "        try:\n            send(url, body)\n        except Exception:\n            pass\n"),
            base=RIGHT_MY_AGENT,
        ),
        1,
        "lesson.capstone.failure_hidden",
    ),
    (  # the failure told in words, as a result that is no is_error
        variant(
            (
                SEND,
                '        try:\n            send(url, body)\n        except OSError as err:\n            return f"送れませんでした: {err}"\n',
            ),
            base=RIGHT_MY_AGENT,
        ),
        1,
        "lesson.capstone.failure_hidden",
    ),
]

RIGHT_MY_AGENT_COUNTS = [
    # the network's error raised again as one of the learner's own, with a message: still an is_error result
    variant(
        (
            SEND,
            '        try:\n            send(url, body)\n        except OSError as err:\n            raise RuntimeError(f"送信に失敗しました: {err}") from err\n',
        ),
        base=RIGHT_MY_AGENT,
    ),
]
