"""Exercise level 1: answers that touch the content list the loop sends back, or shape their results unlike
the lesson's, each wrong one with the criteria and hint keys that must catch it, and right answers in styles
the others do not use.

The loop hands ``run_tool_uses`` the very ``response.content`` it then puts in the history as the assistant
turn: results appended to it, its blocks sorted, an input marked as approved all change what goes back.
"""

from __future__ import annotations

import json

from answers_level1_runners import (
    DICT_POLICY,
    _dict,
    dict_runner,
    forbidden,
    make_runner,
    refused,
    result,
    run,
)


def _tier(name):
    return DICT_POLICY.get(name, "ask")


def _results_into_content(content, tool_impls, approve):
    """Appends each result to content as it goes ("one list for the whole turn"), returns the new ones."""
    start = len(content)
    for block in list(content):
        if block.type == "tool_use":
            content.extend(dict_runner([block], tool_impls, approve))
    return content[start:]


def _sorts_content_by_tier(content, tool_impls, approve):
    """Sorts content in place so the denied calls come first ("refuse early"), then answers in call order."""
    order = {"deny": 0, "ask": 1, "allow": 2}
    ids = [b.id for b in content if b.type == "tool_use"]
    content.sort(key=lambda b: order.get(_tier(b.name), 1) if b.type == "tool_use" else -1)
    by_id = {r["tool_use_id"]: r for r in dict_runner(content, tool_impls, approve)}
    return [by_id[i] for i in ids]


def _marks_approved_inputs(content, tool_impls, approve):
    """Writes approved=True into each asked call's input after a yes, to remember what the person allowed."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            if tier == "ask":
                block.input["approved"] = True
            results.append(run(block, tool_impls))
    return results


def _drops_text_blocks(content, tool_impls, approve):
    """Removes the text blocks from content ("the loop only needs the calls"), then runs the rest."""
    content[:] = [b for b in content if b.type == "tool_use"]
    return dict_runner(content, tool_impls, approve)


def _output_as_a_dict(block, tool_impls):
    """The tool's output handed back as it came, a dict where the API takes text or blocks."""
    try:
        return result(block, {"output": tool_impls[block.name](**block.input)})
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}", True)


def _status_line_appended(content, tool_impls, approve):
    """One more block after the results, a summary text for the model ("3 ran, 2 not")."""
    results = dict_runner(content, tool_impls, approve)
    return results + [{"type": "text", "text": f"{len(results)} 件の結果です"}]


def _denied_asks_anyway(content, tool_impls, approve):
    """deny read as "ask, and refuse whatever the answer": the person is asked about a forbidden tool."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier in ("ask", "deny") and (not approve(block.name, block.input) or tier == "deny"):
            results.append(forbidden(block) if tier == "deny" else refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


# --- right ------------------------------------------------------------------------------------------
def _copies_before_tidying(content, tool_impls, approve):
    """Tidies paths on its own copies of the inputs: content goes back as it came."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        given = dict(block.input)
        if "path" in given:
            given["path"] = given["path"].strip()
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and not approve(block.name, given):
            results.append(refused(block))
        else:
            try:
                results.append(result(block, str(tool_impls[block.name](**given))))
            except Exception as err:
                results.append(result(block, f"ツールの実行に失敗しました: {err}", True))
    return results


def _handlers_by_tier(content, tool_impls, approve):
    """A table of handlers, one per tier, picked per call."""
    handlers = {
        "deny": lambda b: forbidden(b),
        "ask": lambda b: run(b, tool_impls) if approve(b.name, b.input) else refused(b),
        "allow": lambda b: run(b, tool_impls),
    }
    return [handlers[_tier(b.name)](b) for b in content if b.type == "tool_use"]


def _results_as_text_blocks(block, tool_impls):
    """Every result's content as a list of text blocks, the output as JSON with ensure_ascii=False."""
    try:
        text = json.dumps(tool_impls[block.name](**block.input), ensure_ascii=False)
        return {"type": "tool_result", "tool_use_id": block.id, "content": [{"type": "text", "text": text}]}
    except Exception as err:
        failed = [{"type": "text", "text": f"ツールの実行に失敗しました: {err}"}]
        return {"type": "tool_result", "tool_use_id": block.id, "content": failed, "is_error": True}


def _in_a_list(make):
    """``make``'s result with its text put in a list ("content takes a list"): plain strings, not text blocks."""

    def made(block, *rest):
        made_result = make(block, *rest)
        return {**made_result, "content": [made_result["content"]]}

    return made


WRONG_CONTENT = {
    "results appended to content": (_dict(_results_into_content), {3: "grade.l1.c3.content_changed"}),
    "content sorted in place, denied first": (_dict(_sorts_content_by_tier), {3: "grade.l1.c3.content_changed"}),
    "approved=True written into the input": (
        _dict(_marks_approved_inputs),
        {2: "grade.l1.c2.input_changed", 3: "grade.l1.c3.content_changed"},
    ),
    "text blocks removed from content": (_dict(_drops_text_blocks), {3: "grade.l1.c3.content_changed"}),
    "tool output returned as a dict": (
        _dict(make_runner(_tier, execute=_output_as_a_dict)),
        {3: "grade.l1.c3.api_rejected"},
    ),
    "every result's text in a list of plain strings": (  # read as no text at all, it was told a deny says no rule
        _dict(make_runner(_tier, forbid=_in_a_list(forbidden), refuse=_in_a_list(refused), execute=_in_a_list(run))),
        {3: "grade.l1.c3.api_rejected"},
    ),
    "a summary text block after the results": (_dict(_status_line_appended), {3: "grade.l1.c3.type"}),
    "a denied tool put to the person first": (
        _dict(_denied_asks_anyway),
        {1: "grade.l1.c1.mismatch", 3: "grade.l1.c3.no_deny"},
    ),
}

RIGHT_CONTENT = {
    "inputs tidied on copies": _dict(_copies_before_tidying),
    "a handler per tier": _dict(_handlers_by_tier),
    "results as text blocks": _dict(make_runner(_tier, execute=_results_as_text_blocks)),
}
