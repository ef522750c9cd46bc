"""Wrong versions of each hand-written piece, by the mistake a learner makes, and the hint each must get.

Each entry: (piece, the wrong function, the point it fails (1-based), the hint key). The checks must
name the real cause: a history without the tool_use block gets the "keep the whole content" hint,
not a generic 400.
"""

from __future__ import annotations

import json

from harness_lab.lessons.lesson4 import signature_of as good_signature
from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.lessons.lesson5 import run_tool_uses as good_run_tool_uses
from tests.lessons.answers_loop import (
    agent_first_text_only,
    agent_joins_lines,
    agent_no_reassignment,
    agent_no_tools_on_follow_up,
    agent_one_message_per_result,
    agent_text_only_history,
    agent_until_end_turn,
    agent_while_calls_in_content,
    step_by_text,
    step_max_tokens_runs,
    step_prose,
    step_stop_sequence_stops,
    step_table_without_default,
    step_unknown_goes_on,
    tools_answering_text_too,
    tools_ascii_json,
    tools_catches_a_guessed_few,
    tools_dict_content,
    tools_dumps_dicts_only,
    tools_error_without_flag,
    tools_lookup_outside_try,
    tools_no_try,
    tools_return_the_message,
    tools_reversed,
    tools_skips_the_kinds_it_knows,
    tools_stop_at_first_failure,
    tools_subscript_blocks,
    tools_text_blocks_too,
)

# --- signature_of ---------------------------------------------------------------------------


def sig_unsorted_keys(content):
    return " | ".join(sorted(f"{b.name}({json.dumps(b.input)})" for b in content if b.type == "tool_use"))


def sig_name_only(content):
    return " | ".join(sorted(b.name for b in content if b.type == "tool_use"))


def sig_call_order(content):
    return " | ".join(f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use")


def sig_first_call_only(content):
    calls = [b for b in content if b.type == "tool_use"]
    return good_signature(calls[:1])


def sig_sorted_by_name(content):  # two calls of one tool keep the order they came in
    calls = sorted((b for b in content if b.type == "tool_use"), key=lambda b: b.name)
    return " | ".join(f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in calls)


def sig_top_keys_sorted(content):  # only the top level sorted, by hand
    parts = (f"{b.name}({json.dumps(dict(sorted(b.input.items())))})" for b in content if b.type == "tool_use")
    return " | ".join(sorted(parts))


def sig_as_set(content):  # a set: the same call twice counts once
    return " | ".join(
        sorted({f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use"})
    )


def sig_with_ids(content):
    return " | ".join(sorted(f"{b.id}:{b.name}" for b in content if b.type == "tool_use"))


def sig_id_name_and_input(content):  # sorted, but each part starts with the id, new in every response
    parts = (f"{b.id}:{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use")
    return " | ".join(sorted(parts))


def sig_names_and_inputs_apart(content):  # which call had which input is lost
    calls = [b for b in content if b.type == "tool_use"]
    names = sorted(b.name for b in calls)
    inputs = sorted(json.dumps(b.input, ensure_ascii=False, sort_keys=True) for b in calls)
    return f"{names}{inputs}"


def sig_values_only(content):  # the argument values without their keys
    return " | ".join(sorted(f"{b.name}{sorted(map(str, b.input.values()))}" for b in content if b.type == "tool_use"))


# --- run_tool_uses (approval) ---------------------------------------------------------------


def approve_after_running(content, impls, approve):  # the colleague's wiring
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        out = str(impls[b.name](**b.input))
        if b.name in HIGH_IMPACT and not approve(b.name, b.input):
            results.append({"type": "tool_result", "tool_use_id": b.id, "content": "拒否", "is_error": True})
        else:
            results.append({"type": "tool_result", "tool_use_id": b.id, "content": out})
    return results


def approve_never_asked(content, impls, approve):
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": str(impls[b.name](**b.input))}
        for b in content
        if b.type == "tool_use"
    ]


def approve_drops_denied(content, impls, approve):
    results = good_run_tool_uses(content, impls, approve)
    return [r for r in results if not r.get("is_error")]


def approve_denied_not_error(content, impls, approve):
    return [{k: v for k, v in r.items() if k != "is_error"} for r in good_run_tool_uses(content, impls, approve)]


def approve_asks_everything(content, impls, approve):
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        if not approve(b.name, b.input):
            results.append({"type": "tool_result", "tool_use_id": b.id, "content": "拒否", "is_error": True})
            continue
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": str(impls[b.name](**b.input))})
    return results


def approve_read_backwards(content, impls, approve):  # the `not` slipped: a yes refuses
    return good_run_tool_uses(content, impls, lambda name, tool_input: not approve(name, tool_input))


def approve_about_nothing(content, impls, approve):  # asked, but about no input at all
    return good_run_tool_uses(content, impls, lambda name, tool_input: approve(name, {}))


def approve_denial_untyped(content, impls, approve):  # the denial built without its "type"
    results = good_run_tool_uses(content, impls, approve)
    return [{k: v for k, v in r.items() if k != "type"} if r.get("is_error") else r for r in results]


def approve_exception_content(content, impls, approve):  # an exception object where the text belongs
    results = good_run_tool_uses(content, impls, approve)
    return [{**r, "content": RuntimeError(r["content"])} if r.get("is_error") else r for r in results]


def approve_outputs_only(content, impls, approve):  # the contents alone, no tool_result around them
    return [r["content"] for r in good_run_tool_uses(content, impls, approve)]


def approve_ignores_answer(content, impls, approve):
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        if b.name in HIGH_IMPACT:
            approve(b.name, b.input)
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": str(impls[b.name](**b.input))})
    return results


# --- read_file (lesson 6) ------------------------------------------------------------------------------


def read_startswith(path, root="."):  # the seed's check: a symlink inside the root fools it
    import os

    base = os.path.abspath(root)
    target = os.path.abspath(os.path.join(base, path))
    if not target.startswith(base + os.sep):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_resolved_prefix(path, root="."):  # issue 28: resolved, then a string prefix test
    from pathlib import Path

    base = Path(root).resolve()
    target = (base / path).resolve()
    if not str(target).startswith(str(base)):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_target_resolved_only(path, root="."):  # the root left as given: a root that is a link refuses all
    import os

    base = os.path.abspath(root)
    target = os.path.realpath(os.path.join(base, path))
    if not target.startswith(base + os.sep):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_file_links_only(path, root="."):  # a link to a file is caught, a link to a folder is not
    import os

    base = os.path.realpath(root)
    if os.path.islink(os.path.join(base, path)) or ".." in path or os.path.isabs(path):
        raise PermissionError(path)
    with open(os.path.join(base, path), encoding="utf-8") as f:
        return f.read(2000)


def read_anything(path, root="."):
    from pathlib import Path

    with open(Path(root) / path, encoding="utf-8") as f:
        return f.read(2000)


def read_refuses_dots(path, root="."):
    from pathlib import Path

    if ".." in path:
        raise PermissionError(path)
    return (Path(root).resolve() / path).resolve().read_text(encoding="utf-8")[:2000]


# --- stop_message (lesson 7) -------------------------------------------------------------------


def _said_text(response):
    return "".join(b.text for b in response.content if b.type == "text")


def stop_shows_none(response):  # the missing fields go into the f-string as they are
    d = response.stop_details
    if response.stop_reason == "refusal":
        return f"断られました（{d.category}）: {d.explanation}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason} 切れました: {_said_text(response)}"
    return None


def stop_shows_none_in_english(response):  # the same f-string, in English words
    d = response.stop_details
    if response.stop_reason == "refusal":
        return f"The model declined. Category: {d.category}. Reason: {d.explanation}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"Cut off by {response.stop_reason}. So far: {_said_text(response)}"
    return None


def _refusal(response):
    d = response.stop_details
    return f"断られました（{d.category or '?'}）: {d.explanation or '?'}"


def stop_partial_only(response):  # the text so far, with no word on why it stops
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return _said_text(response)
    return None


def stop_last_block(response):  # the partial text read from the last block, which may be a tool_use
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason} 切れました: {response.content[-1].text}"
    return None


def stop_same_for_both_cutoffs(response):  # does not say which limit stopped it
    if response.stop_reason == "refusal":
        return _refusal(response)
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"切れました: {_said_text(response)}"
    return None


def stop_explained_only_with_category(response):  # the explanation shown only beside a category
    d = response.stop_details
    if response.stop_reason == "refusal":
        return f"断られました（{d.category}）: {d.explanation or '?'}" if d.category else "断られました"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason} 切れました: {_said_text(response)}"
    return None


def stop_details_as_json(response):  # the details dumped: the person reads null
    if response.stop_reason == "refusal":
        return "断られました: " + json.dumps(response.stop_details.model_dump(), ensure_ascii=False)
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason} 切れました: {_said_text(response)}"
    return None


def stop_everything_else(response):  # next_step's "everything else stops", stop_sequence included
    if response.stop_reason in ("tool_use", "pause_turn", "end_turn"):
        return None
    return stop_shows_none(response) or f"止まりました（{response.stop_reason}）: {_said_text(response)}"


def stop_as_dict(response):
    return {"reason": response.stop_reason} if response.stop_reason != "tool_use" else None


def stop_refusal_vague(response):
    return {"refusal": "断られました", "max_tokens": "切れました: " + _said_text(response)}.get(response.stop_reason)


def stop_explanation_only(response):
    if response.stop_reason == "refusal":
        return f"断られました: {response.stop_details.explanation}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return "切れました: " + _said_text(response)
    return None


def stop_only_when_explained(response):
    details = response.stop_details
    if response.stop_reason == "refusal" and details.explanation:
        return f"断られました（{details.category}）: {details.explanation}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return "切れました: " + _said_text(response)
    return None


def stop_drops_the_text(response):
    if response.stop_reason == "refusal":
        return f"断られました（{response.stop_details.category}）: {response.stop_details.explanation}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"{response.stop_reason} で止まりました"
    return None


def stop_on_pause_too(response):
    if response.stop_reason in ("tool_use", "end_turn"):
        return None
    details = response.stop_details
    return f"止まりました（{response.stop_reason}, {details and details.category}）: {details and details.explanation} {_said_text(response)}"


WRONG = [
    ("run_tools", tools_answering_text_too, 1, "lesson.l2.run_tools.count"),
    ("run_tools", tools_reversed, 1, "lesson.l2.run_tools.order"),
    ("run_tools", tools_dict_content, 2, "lesson.l2.run_tools.not_text"),
    ("run_tools", tools_ascii_json, 2, "lesson.l2.run_tools.ascii"),
    ("run_tools", tools_no_try, 3, "lesson.l2.run_tools.raised"),
    ("run_tools", tools_error_without_flag, 3, "lesson.l2.run_tools.not_error"),
    ("run_tools", tools_lookup_outside_try, 3, "lesson.l2.run_tools.unknown_name"),
    ("run_tools", tools_skips_the_kinds_it_knows, 1, "lesson.l2.run_tools.other_blocks"),
    ("run_tools", tools_dumps_dicts_only, 2, "lesson.l2.run_tools.list_output"),
    ("run_tools", tools_catches_a_guessed_few, 3, "lesson.l2.run_tools.raised"),
    ("run_tools", tools_text_blocks_too, 1, "lesson.rule.text_block"),
    ("run_tools", tools_stop_at_first_failure, 3, "lesson.l2.run_tools.stopped_early"),
    ("run_tools", tools_return_the_message, 1, "lesson.l2.run_tools.message"),
    ("run_tools", tools_subscript_blocks, 1, "lesson.rule.block_attributes"),
    ("run_agent", agent_text_only_history, 2, "lesson.l2.keep_content"),
    ("run_agent", agent_no_tools_on_follow_up, 2, "lesson.l2.pass_tools"),
    ("run_agent", agent_no_reassignment, 2, "lesson.l2.reassign"),
    ("run_agent", agent_one_message_per_result, 3, "lesson.l2.run_agent.split_results"),
    ("run_agent", agent_first_text_only, 2, "lesson.l2.run_agent.requests"),
    ("run_agent", agent_joins_lines, 2, "lesson.l2.run_agent.joined_with"),
    ("run_agent", agent_until_end_turn, 1, "lesson.l2.run_agent.went_on"),
    ("run_agent", agent_while_calls_in_content, 1, "lesson.l2.run_agent.cut_call_ran"),
    ("next_step", step_by_text, 1, "lesson.l3.next_step.tool_use"),
    ("next_step", step_unknown_goes_on, 3, "lesson.l3.next_step.unknown"),
    ("next_step", step_table_without_default, 3, "lesson.l3.next_step.unknown_raised"),
    ("next_step", step_prose, 1, "lesson.l3.next_step.vocabulary"),
    ("next_step", step_max_tokens_runs, 3, "lesson.l3.next_step.max_tokens"),
    ("next_step", step_stop_sequence_stops, 2, "lesson.l3.next_step.stop_sequence"),
    ("signature_of", sig_sorted_by_name, 3, "lesson.l4.signature.call_order"),
    ("signature_of", sig_top_keys_sorted, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_as_set, 2, "lesson.l4.signature.twice"),
    ("signature_of", sig_unsorted_keys, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_name_only, 2, "lesson.l4.signature.collides"),
    ("signature_of", sig_call_order, 3, "lesson.l4.signature.call_order"),
    ("signature_of", sig_first_call_only, 3, "lesson.l4.signature.one_call"),
    ("signature_of", sig_with_ids, 1, "lesson.l4.signature.ids"),
    ("signature_of", sig_names_and_inputs_apart, 2, "lesson.l4.signature.pairs"),
    ("signature_of", sig_values_only, 2, "lesson.l4.signature.pairs"),
    ("signature_of", sig_id_name_and_input, 3, "lesson.l4.signature.ids"),
    ("run_tool_uses", approve_after_running, 1, "lesson.l5.ran_before_asking"),
    ("run_tool_uses", approve_after_running, 2, "lesson.l5.ran_before_asking"),  # its no ran: the order, not the no
    ("run_tool_uses", approve_never_asked, 1, "lesson.l5.not_asked"),
    ("run_tool_uses", approve_drops_denied, 2, "lesson.l5.denied_dropped"),
    ("run_tool_uses", approve_denied_not_error, 2, "lesson.l5.denied_not_error"),
    ("run_tool_uses", approve_asks_everything, 3, "lesson.l5.asked_harmless"),
    ("run_tool_uses", approve_read_backwards, 1, "lesson.l5.yes_refused"),
    ("run_tool_uses", approve_about_nothing, 1, "lesson.l5.approve_args"),
    ("run_tool_uses", approve_denial_untyped, 2, "lesson.api_400"),
    ("run_tool_uses", approve_outputs_only, 1, "lesson.l5.not_results"),
    ("run_tool_uses", approve_exception_content, 2, "lesson.unsendable"),
    ("run_tool_uses", approve_ignores_answer, 2, "lesson.l5.ran_anyway"),
    ("read_file", read_startswith, 3, "lesson.l6.read_file.link"),
    ("read_file", read_resolved_prefix, 2, "lesson.l6.read_file.sibling"),
    ("read_file", read_target_resolved_only, 1, "lesson.l6.read_file.root_link"),
    ("read_file", read_file_links_only, 3, "lesson.l6.read_file.link"),
    ("read_file", read_anything, 2, "lesson.l6.read_file.escaped"),
    ("read_file", read_refuses_dots, 1, "lesson.l6.read_file.inner_path"),
    ("stop_message", stop_as_dict, 1, "lesson.l7.stop_message.not_text"),
    ("stop_message", stop_refusal_vague, 1, "lesson.l7.stop_message.no_explanation"),
    ("stop_message", stop_explanation_only, 1, "lesson.l7.stop_message.no_category"),
    ("stop_message", stop_only_when_explained, 2, "lesson.l7.stop_message.silent"),
    ("stop_message", stop_shows_none, 2, "lesson.l7.stop_message.shows_none"),
    ("stop_message", stop_shows_none_in_english, 2, "lesson.l7.stop_message.shows_none"),
    ("stop_message", stop_everything_else, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_drops_the_text, 3, "lesson.l7.stop_message.lost_text"),
    ("stop_message", stop_on_pause_too, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_partial_only, 3, "lesson.l7.stop_message.no_reason"),
    ("stop_message", stop_last_block, 3, "lesson.raised"),
    ("stop_message", stop_same_for_both_cutoffs, 3, "lesson.l7.stop_message.same_reason"),
    ("stop_message", stop_explained_only_with_category, 2, "lesson.l7.stop_message.no_explanation"),
    ("stop_message", stop_details_as_json, 2, "lesson.l7.stop_message.shows_none"),
]
