"""The English twins of the references from lessons 2 to 6 that ``lessons.show`` prints in an English kernel.

``lessons.english`` holds the twins that an English kernel also *runs* (their stop messages are
words); the ones here matter mostly for reading: the learner who runs ``lessons.show("read_file")``
after a failed check reads English comments. They are the Japanese references token for token,
strings and comments aside (a string that reads as a name, such as ``"run_tools"``, stays as it is:
tests/lessons/test_english_twins.py), and they run as the Japanese ones do, so a piece may also hand
its twin out (``Piece.english``). ``twin`` picks what ``show`` prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ..model import DEFAULT_MODEL
from ..text import t
from .checking import Piece
from .lesson5 import HIGH_IMPACT

__all__ = ["TWINS", "next_step", "read_file", "run_agent", "run_tool_uses", "run_tools", "signature_of", "twin"]

MODEL = DEFAULT_MODEL


def run_tools(content, impls):
    """Run every tool_use of this turn and return their tool_results as a list, in the order of the calls"""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue  # skip text blocks
        try:
            output = impls[block.name](**block.input)  # the tool the model named, with the arguments it gave
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
        except Exception as err:  # a tool that fails must not bring the loop down
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": f"The tool failed: {err}",
                    "is_error": True,
                }
            )
    return results


def run_agent(client, user_input, tools, impls):
    """Go round while stop_reason is "tool_use", then return the last text (the bare loop, no control valves)"""
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})  # the whole content, as it came
        results = run_tools(response.content, impls)
        messages.append({"role": "user", "content": results})  # one turn's results go in a single user message
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)  # reassigned
    return "".join(b.text for b in response.content if b.type == "text")


def next_step(response):
    """What the loop does after this response: "run_tools" / "resend" / "finish" / "stop" """
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"  # run the tools, send the results back, go on
    if reason == "pause_turn":
        return "resend"  # send the assistant content back as it is and go on (add no "continue")
    if reason in ("end_turn", "stop_sequence"):
        return "finish"  # return the final answer and end
    return "stop"  # max_tokens / refusal / model_context_window_exceeded, and any value it does not know: stop, report


def signature_of(content):
    """This turn's tool_use blocks as "name(arguments as JSON)", sorted and joined into one string"""
    parts = [
        f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)})" for b in content if b.type == "tool_use"
    ]
    return " | ".join(sorted(parts))  # the same calls in another order still give the same signature


def run_tool_uses(content, impls, approve):
    """One tool_result per tool_use, in the order of the calls; a high-impact tool is asked about *before* it runs"""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        # the approval valve: ask before a high-impact action runs; on a no, do not run it
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "is_error": True,
                    "content": t("result.denied"),  # tells the model it was denied (in the notebook's language)
                }
            )
            continue  # not run, but it still gets its tool_result: no call is left unanswered
        try:
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": str(impls[block.name](**block.input))}
            )
        except Exception as err:
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": t("result.failed", error=err),
                    "is_error": True,
                }
            )
    return results


def read_file(path, root="."):
    """The first 2000 characters of a file inside root, judged by where the path really leads once links are followed"""
    base = Path(root).resolve()  # the real location, even when the root itself is a link
    target = (base / path).resolve()  # the real destination, every link followed to the end
    if not target.is_relative_to(base):  # compare path components, not strings with startswith
        raise PermissionError(t("file.outside_root", path=path))  # the refusal, in the notebook's language
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


# (name, lesson) -> the English twin of that piece's reference, for the pieces that do not hand one out
TWINS: dict[tuple[str, int], Callable] = {
    ("run_tools", 2): run_tools,
    ("run_agent", 2): run_agent,
    ("next_step", 3): next_step,
    ("signature_of", 4): signature_of,
    ("run_tool_uses", 5): run_tool_uses,
    ("read_file", 6): read_file,
}


def twin(piece: Piece) -> Callable:
    """What an English kernel reads for ``piece``: the twin it hands out, else the one here, else the reference."""
    return piece.english or TWINS.get((piece.name, piece.lesson)) or piece.japanese
