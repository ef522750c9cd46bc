"""Wrong answers to lessons 5-7's pieces written from habits of elsewhere (OpenAI's role "tool" results,
approve called with keywords or its answer compared with words as input() returns them, a refusal said as
text) and from reading a rule a little off (asked once per tool name, high impact guessed from the name),
each with the hint that must name its cause; and right answers in other styles that must pass.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from tests.lessons.answers_habits import HIGH_IMPACT, result_of

# --- run_tool_uses (lesson 5) ----------------------------------------------------------------------


def _gated(content, impls, allowed, denial=lambda b: result_of(b, "拒否されました", error=True)):
    out = []
    for b in (b for b in content if b.type == "tool_use"):
        if b.name in HIGH_IMPACT and not allowed(b):
            out.append(denial(b))
            continue
        try:
            out.append(result_of(b, str(impls[b.name](**b.input))))
        except Exception as e:
            out.append(result_of(b, f"失敗: {e}", error=True))
    return out


def approval_refuses_words(content, impls, approve):  # input() habits: only "n" / "no" refused
    return _gated(content, impls, lambda b: approve(b.name, b.input) not in ("n", "no", "いいえ"))


def approval_once_per_tool(content, impls, approve):  # asked once per tool name, the answer kept for the turn
    answers: dict = {}
    return _gated(content, impls, lambda b: answers.setdefault(b.name, approve(b.name, b.input)))


def approval_error_is_none(content, impls, approve):  # an approval that raised read as "no answer"; only False refuses
    def allowed(b):
        try:
            return approve(b.name, b.input) is not False
        except Exception:
            return True

    return _gated(content, impls, allowed)


def approval_openai_results(content, impls, approve):  # OpenAI's {"role": "tool"} results
    return [
        {"role": "tool", "tool_call_id": r["tool_use_id"], "content": r["content"]}
        for r in _gated(content, impls, lambda b: approve(b.name, b.input))
    ]


def approval_keywords(content, impls, approve):  # approve(name=..., input=...): its parameters are not so named
    return _gated(content, impls, lambda b: approve(name=b.name, input=b.input))


def approval_input_as_json(content, impls, approve):  # the input shown as JSON text
    return _gated(content, impls, lambda b: approve(b.name, json.dumps(b.input, ensure_ascii=False)))


def approval_denial_as_text(content, impls, approve):  # the denial said in a text block, no tool_result
    return _gated(content, impls, lambda b: approve(b.name, b.input), lambda b: {"type": "text", "text": "拒否"})


def approval_by_prefix(content, impls, approve):  # high impact guessed from the name: write_ and delete_ only
    out = []
    for b in (b for b in content if b.type == "tool_use"):
        if b.name.startswith(("write_", "delete_")) and not approve(b.name, b.input):
            out.append(result_of(b, "拒否", error=True))
            continue
        try:
            out.append(result_of(b, str(impls[b.name](**b.input))))
        except Exception as e:
            out.append(result_of(b, f"失敗: {e}", error=True))
    return out


@dataclass
class Gate:
    approve: object

    def allows(self, block):
        return block.name not in HIGH_IMPACT or bool(self.approve(block.name, block.input))


def approval_right_dataclass(content, impls, approve):  # right: the valve as a small dataclass
    return _gated(content, impls, Gate(approve).allows)


def approval_right_match(content, impls, approve):  # right: a match statement per block
    out = []
    for b in content:
        match b.type, getattr(b, "name", None):
            case ("tool_use", name) if name in HIGH_IMPACT and not approve(name, b.input):
                out.append(result_of(b, "拒否されました", error=True))
            case ("tool_use", name):
                try:
                    out.append(result_of(b, str(impls[name](**b.input))))
                except Exception as e:
                    out.append(result_of(b, f"失敗: {e}", error=True))
    return out


# --- read_file (lesson 6) and stop_message (lesson 7) ----------------------------------------------


def read_says_no_in_words(path, root="."):  # the refusal returned as text, as a tool's output
    base = Path(root).resolve()
    target = (base / path).resolve()
    return target.read_text(encoding="utf-8")[:2000] if target.is_relative_to(base) else "エラー: ルートの外です"


def read_from_the_working_folder(path, root="."):  # Path(".") where root was meant
    base = Path(".").resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(f"{path} はルートの外です")
    return target.read_text(encoding="utf-8")[:2000]


def _cut(response):
    return "".join(b.text for b in response.content if b.type == "text")


def stop_empty_for_the_rest(response):  # "" where None was asked for
    if response.stop_reason in ("refusal", "max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason}: {_cut(response)}"
    return ""


def stop_details_dot_get(response):  # stop_details read with dict.get
    if response.stop_reason == "refusal":
        details = response.stop_details or {}
        return f"断られました（{details.get('category') or '分類なし'}）: {details.get('explanation') or '説明なし'}"
    return (
        f"途中で切れました: {_cut(response)}"
        if response.stop_reason in ("max_tokens", "model_context_window_exceeded")
        else None
    )


def _refusal(response):
    d = response.stop_details
    return f"断られました（{(d and d.category) or '分類なし'}）: {(d and d.explanation) or '説明はありません'}"


def stop_max_tokens_only(response):  # the full context window left out
    if response.stop_reason == "refusal":
        return _refusal(response)
    return f"max_tokens で途中で切れました: {_cut(response)}" if response.stop_reason == "max_tokens" else None


def stop_first_block_text(response):  # content[0].text: a thinking block may come first
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason}: {response.content[0].text}"
    return None


def stop_right_match(response):  # right: a match statement, the two cut-offs in one case
    match response.stop_reason:
        case "refusal":
            return _refusal(response)
        case "max_tokens" | "model_context_window_exceeded" as why:
            return f"{why} で答えが途中で切れました: {_cut(response)}"
        case _:
            return None


class StopMessages:  # right: an object with __call__, its words in a class attribute
    __name__ = "StopMessages"
    WHY: ClassVar[dict] = {
        "max_tokens": "max_tokens に達して",
        "model_context_window_exceeded": "コンテキストウィンドウが一杯で",
    }

    def __call__(self, response):
        if response.stop_reason == "refusal":
            return _refusal(response)
        why = self.WHY.get(response.stop_reason)
        return f"{why}答えが途中で切れました。ここまで: {_cut(response)}" if why else None


WRONG_HABITS_GATES = [
    ("run_tool_uses", approval_refuses_words, 2, "lesson.l5.ran_anyway"),
    ("run_tool_uses", approval_once_per_tool, 2, "lesson.l5.answer_reused"),
    ("run_tool_uses", approval_error_is_none, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", approval_openai_results, 1, "lesson.rule.other_api_result"),
    ("run_tool_uses", approval_keywords, 1, "lesson.l5.approve_call"),
    ("run_tool_uses", approval_input_as_json, 2, "lesson.l5.approve_args"),
    ("run_tool_uses", approval_denial_as_text, 2, "lesson.l5.denied_dropped"),
    ("run_tool_uses", approval_by_prefix, 1, "lesson.l5.not_asked"),
    ("read_file", read_says_no_in_words, 2, "lesson.l6.read_file.returned_refusal"),
    ("read_file", read_from_the_working_folder, 1, "lesson.l6.read_file.wrong_root"),
    ("stop_message", stop_empty_for_the_rest, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_details_dot_get, 1, "lesson.rule.sdk_fields"),
    ("stop_message", stop_max_tokens_only, 3, "lesson.l7.stop_message.silent"),
    ("stop_message", stop_first_block_text, 3, "lesson.rule.first_not_text"),
]

RIGHT_HABITS_GATES = [
    ("run_tool_uses", approval_right_dataclass),
    ("run_tool_uses", approval_right_match),
    ("stop_message", stop_right_match),
    ("stop_message", StopMessages()),
]
