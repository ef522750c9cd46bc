"""The API's 400s as the lessons name them: the hint for each history mistake a lesson teaches, read
from the rejection's own message (and the history it refused, when known), and a 400 the learner's
loop caught and hid."""

from __future__ import annotations

import re
from typing import Any

import anthropic

from ..messages import field
from .checking import Miss

__all__ = ["api_refusal", "blocks", "rejection_hint", "swallowed"]

# The real API's 400 for each history mistake a lesson teaches, and the hint that names its cause.
REJECTIONS = (
    # A thinking block dropped or edited in the history sent back (the default model
    # thinks first); the texts are the emulator's roundtrip.py and schema's, which are the API's.
    ("Expected `thinking` or `redacted_thinking`", "lesson.l2.keep_thinking"),
    ("must start with a thinking block", "lesson.l2.keep_thinking"),
    ("blocks in the latest assistant message cannot be modified", "lesson.l2.thinking_changed"),
    ("Invalid `signature` in `thinking` block", "lesson.l2.thinking_changed"),
    ("Invalid `data` in `redacted_thinking` block", "lesson.l2.thinking_changed"),
    ("thinking.signature: Field required", "lesson.l2.thinking_changed"),
    ("thinking.data: Field required", "lesson.l2.thinking_changed"),
    ("unexpected `tool_use_id`", "lesson.l2.keep_content"),
    ("must define tools", "lesson.l2.pass_tools"),
    ("Tool names must be unique", "lesson.l2.tools_twice"),
    ("were found without `tool_result`", "lesson.l2.results_first"),
    ("ids must be unique", "lesson.l2.reassign"),
    ("must have non-empty content", "lesson.l2.empty_message"),
    ("Input should be a valid array", "lesson.l2.content_not_list"),
    ("content cannot be empty if `is_error` is true", "lesson.rule.error_without_content"),
    ('Unexpected role "system"', "lesson.rule.system_role"),
    # A system message first in messages, on any model (the live text since the emulator's round five).
    ("use the top-level 'system' parameter for the initial system prompt", "lesson.rule.system_role"),
)
NOT_A_FLAG = "is_error: Input should be a valid boolean"
PREFILL = "does not support assistant message prefill"
EXTRA_KEY = re.compile(r"\.tool_result\.(\w+): Extra inputs are not permitted")
NO_ROLE = re.compile(r"^messages\.(\d+)\.role: Field required")
MESSAGE_EXTRA_KEY = re.compile(r"^messages\.\d+\.(\w+): Extra inputs are not permitted")  # OpenAI's tool_calls, name


def rejection_hint(message: str, messages: list | None = None) -> Miss:
    """The hint for the API's 400 ``message``; ``messages`` (the rejected history) tells a result sent
    before its call from a call dropped from the history, and shows where the results went."""
    if extra := EXTRA_KEY.search(message):
        return Miss("lesson.l2.result_extra_key", {"extra": extra.group(1), "error": message})
    if extra := MESSAGE_EXTRA_KEY.search(message):
        return Miss("lesson.rule.message_extra_key", {"extra": extra.group(1), "error": message})
    if role := _results_outside_user(messages or []):  # the assistant's prefill refusal, or no such role
        return Miss("lesson.l2.results_in_user", {"role": role, "error": message})
    if NOT_A_FLAG in message and (flag := _odd_flag(messages or [])):
        if isinstance(flag[0], str):  # "true" / "false": the word, not the value
            return Miss("lesson.rule.is_error_text", {"got": repr(flag[0])[:20]})
        return Miss("lesson.rule.is_error_type", {"got": repr(flag[0])[:20], "error": message})
    if (no_role := NO_ROLE.match(message)) and messages and int(no_role.group(1)) < len(messages):
        return _without_role(messages[int(no_role.group(1))], message)
    if PREFILL in message and messages and isinstance(messages[-1], dict) and blocks(messages[-1], "tool_use"):
        # The history ends with the calls: they went back with no results (the tools never ran).
        return Miss("lesson.l2.calls_unanswered", {"error": message})
    if messages and isinstance(messages[0], dict) and blocks(messages[0], "tool_result"):
        # The history opens with results, not the user's question: a slice (messages[-3:]) cut it there,
        # and the results it kept lost the tool_use they answer.
        return Miss("lesson.history_cut", {"error": message})
    for needle, key in REJECTIONS:
        if needle in message:
            if key == "lesson.l2.keep_content" and messages and _called_later(message, messages):
                key = "lesson.l2.results_before_call"
            if key == "lesson.l2.results_first" and messages and _overwritten(message, messages):
                key = "lesson.l2.results_overwritten"
            return Miss(key, {"error": message})
    return Miss("lesson.api_400", {"error": message})


def _without_role(sent: Any, message: str) -> Miss:
    """A message with no role: a result block put in the history as a message of its own (the results'
    list extended into ``messages``), or a message written without its role."""
    if isinstance(sent, dict) and sent.get("type") == "tool_result":
        return Miss("lesson.rule.result_as_message", {"error": message})
    return Miss("lesson.rule.role_missing", {"error": message})


def _odd_flag(messages: list) -> tuple | None:
    """The first tool_result's is_error that is no bool, as a 1-tuple (its value may be None)."""
    for m in messages:
        for b in blocks(m, "tool_result") if isinstance(m, dict) else ():
            flag = field(b, "is_error", False)
            if not isinstance(flag, bool):
                return (flag,)
    return None


def _results_outside_user(messages: list) -> str:
    """The role of a message that carries tool results but is no user message ("" when none does)."""
    for m in messages:
        if not isinstance(m, dict) or m.get("role") == "user":
            continue
        if m.get("role") == "tool" or blocks(m, "tool_result"):
            return str(m.get("role"))
    return ""


def _overwritten(message: str, messages: list) -> bool:
    """Does the message after a call the 400 names as unanswered hold the results of a later turn's
    calls (one list put into the history on every turn, emptied and refilled each time)?"""
    named = set(re.findall(r"toolu_\w+", message))
    calls = [
        _ids(m, "tool_use", "id") if isinstance(m, dict) and m.get("role") == "assistant" else set() for m in messages
    ]
    for i in range(len(messages) - 1):
        answered = _ids(messages[i + 1], "tool_result", "tool_use_id")
        if calls[i] & named and answered and any(answered <= later for later in calls[i + 1 :]):
            return True
    return False


def _ids(message: Any, kind: str, name: str) -> set:
    return {field(b, name) for b in blocks(message, kind)}


def blocks(message: Any, kind: str | None = None) -> list:
    """The content blocks (of ``kind``) of a message as the loop sent it; a rejected history's message may
    be anything, and what holds no list of blocks has none."""
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if kind is None or field(b, "type") == kind] if isinstance(content, list) else []


def swallowed(emulator: Any) -> Miss | None:
    """A 400 the learner's loop met and hid (an except that returned as though nothing happened): the
    400's own cause, said as hidden, not the symptom the probe would see next (too few requests...)."""
    refused = getattr(emulator, "refused", None)
    if not refused:
        return None
    message, messages = refused[0]
    return Miss("lesson.swallowed_400", {"cause": rejection_hint(message, messages).hint()})


def api_refusal(exc: anthropic.BadRequestError, messages: list | None = None) -> Miss:
    """The hint for a 400 the learner's loop ran into, by the message the API sent (``messages``: the
    history it rejected, when known)."""
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error")
    message = error.get("message", exc.message) if isinstance(error, dict) else exc.message
    return rejection_hint(str(message), messages)


def _called_later(message: str, messages: list) -> bool:
    """Is a tool_use the 400 names as unanswered somewhere in the history after all (out of order)?"""
    named = set(re.findall(r"toolu_\w+", message))
    ids = {field(b, "id") for m in messages if field(m, "role") == "assistant" for b in blocks(m, "tool_use")}
    return bool(named & ids)
