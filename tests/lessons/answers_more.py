"""More wrong answers a learner writes, and right answers written in
other styles than the reference's: every wrong one must get its own cause's hint, every right one must pass.

Each wrong entry: (piece, the wrong function, the point it fails (1-based), the hint key), as in
``answers.WRONG``; the lesson 6 entries are source text, as in ``answers6.WRONG_RUN_AGENT``.
"""

from __future__ import annotations

from tests.lessons.answers6 import variant
from tests.lessons.answers_more_gates import (
    approve_arguments_swapped,
    approve_asks_with_the_block,
    approve_fails_open,
    approve_failure_unflagged,
    approve_forgot_return,
    approve_kept_results,
    approve_no_try,
    approve_one_argument,
    approve_one_argument_in_try,
    approve_one_no_stops_all,
    approve_only_write_file,
    approve_positional_input,
    approve_prunes_content,
    approve_raises_dropped,
    approve_raises_on_no,
    approve_remembers_yes,
    approve_return_inside_for,
    approve_yields,
    read_2000_bytes,
    read_bytes_as_they_are,
    read_ignores_root,
    read_joins_strings,
    read_raises_value_error,
    read_returns_refusal,
    read_whole_file,
)
from tests.lessons.answers_more_loop import (
    agent_appends_response,
    agent_drops_the_text,
    agent_drops_thinking,
    agent_first_block_text,
    agent_first_text_only,
    agent_fixed_turns,
    agent_kept_history,
    agent_never_resends,
    agent_newest_first,
    agent_prints,
    agent_results_first,
    agent_returns_response,
    agent_subscripts_response,
    agent_tools_for_impls,
    agent_tools_on_the_response,
    sig_input_only,
    sig_sorts_in_place,
    sig_str_dict,
    sig_with_text,
    sig_with_thinking,
    step_max_tokens_finishes,
    step_prints,
    step_without_the_last_return,
    stop_reasons_misspelt,
    tools_given_the_response,
    tools_id_from_name,
    tools_kept_results,
    tools_one_parameter,
    tools_positional_input,
    tools_print_not_return,
    tools_prune_content,
    tools_return_in_loop,
    tools_str_dict,
    tools_strings_in_a_list,
    tools_with_a_note,
)
from tests.lessons.answers_more_right import (
    agent_right_while_true,
    approve_right_closed,
    approve_right_flagged,
    read_right_commonpath,
    read_right_relative_to,
    sig_right_compact,
    sig_right_tuples,
    step_right_match,
    tools_right_as_blocks,
)

WRONG_MORE = [
    ("run_tools", tools_print_not_return, 1, "lesson.l2.run_tools.returned_none"),
    ("run_tools", tools_return_in_loop, 1, "lesson.l2.run_tools.too_few"),
    ("run_tools", tools_with_a_note, 1, "lesson.l2.run_tools.text_in_results"),
    ("run_tools", tools_kept_results, 1, "lesson.l2.run_tools.kept_results"),
    ("run_tools", tools_positional_input, 2, "lesson.l2.run_tools.call_failed"),
    ("run_tools", tools_strings_in_a_list, 2, "lesson.l2.run_tools.not_text_blocks"),
    ("run_tools", tools_prune_content, 4, "lesson.l2.run_tools.changed_content"),
    ("run_tools", tools_str_dict, 2, "lesson.l2.run_tools.not_json"),
    ("run_tools", tools_given_the_response, 1, "lesson.rule.content_given"),
    ("run_tools", tools_one_parameter, 1, "lesson.arguments"),
    ("run_tools", tools_id_from_name, 1, "lesson.l2.run_tools.ids"),
    ("run_agent", agent_prints, 1, "lesson.l2.run_agent.returned_none"),
    ("run_agent", agent_returns_response, 1, "lesson.l2.run_agent.returned_response"),
    ("run_agent", agent_kept_history, 1, "lesson.l2.run_agent.stale_history"),
    ("run_agent", agent_drops_thinking, 2, "lesson.l2.keep_thinking"),
    ("run_agent", agent_tools_for_impls, 3, "lesson.l2.run_agent.tools_not_run"),
    ("run_agent", agent_first_text_only, 2, "lesson.l2.run_agent.not_text"),
    ("run_agent", agent_drops_the_text, 2, "lesson.l2.run_agent.not_whole"),
    ("run_agent", agent_newest_first, 2, "lesson.l2.run_agent.newest_first"),
    ("run_agent", agent_results_first, 2, "lesson.l2.results_before_call"),
    ("run_agent", agent_fixed_turns, 1, "lesson.l2.empty_message"),
    ("run_agent", agent_appends_response, 2, "lesson.l2.content_not_list"),
    ("run_agent", agent_first_block_text, 1, "lesson.rule.first_not_text"),
    ("run_agent", agent_subscripts_response, 1, "lesson.rule.message_attributes"),
    ("run_agent", agent_tools_on_the_response, 2, "lesson.rule.response_given"),
    ("next_step", step_prints, 1, "lesson.l3.next_step.returned_nothing"),  # None for every stop_reason
    ("next_step", step_without_the_last_return, 3, "lesson.l3.next_step.returned_none"),  # for the rest only
    ("stop_message", stop_reasons_misspelt, 1, "lesson.l7.stop_message.silent_everywhere"),
    ("next_step", step_max_tokens_finishes, 3, "lesson.l3.next_step.max_tokens_finish"),
    ("signature_of", sig_str_dict, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_with_text, 1, "lesson.l4.signature.text"),
    ("signature_of", sig_with_thinking, 1, "lesson.l4.signature.text"),
    ("signature_of", sig_sorts_in_place, 1, "lesson.l4.signature.changed_content"),
    ("signature_of", sig_input_only, 2, "lesson.l4.signature.collides"),
    ("run_tool_uses", approve_one_argument, 1, "lesson.l5.approve_call"),
    ("run_tool_uses", approve_one_argument_in_try, 1, "lesson.l5.approve_call"),
    ("run_tool_uses", approve_positional_input, 1, "lesson.l5.call_failed"),
    ("run_tool_uses", approve_only_write_file, 1, "lesson.l5.not_asked"),
    ("run_tool_uses", approve_one_no_stops_all, 2, "lesson.l5.per_call"),
    ("run_tool_uses", approve_raises_on_no, 2, "lesson.l5.denied_raised"),
    ("run_tool_uses", approve_prunes_content, 3, "lesson.l5.changed_content"),
    ("run_tool_uses", approve_no_try, 3, "lesson.l5.tool_raised"),
    ("run_tool_uses", approve_kept_results, 2, "lesson.l5.kept_results"),
    ("run_tool_uses", approve_failure_unflagged, 3, "lesson.l5.failure_not_error"),
    ("run_tool_uses", approve_fails_open, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", approve_forgot_return, 1, "lesson.l5.returned_none"),
    ("run_tool_uses", approve_asks_with_the_block, 1, "lesson.l5.approve_args"),
    ("run_tool_uses", approve_arguments_swapped, 1, "lesson.l5.approve_args"),
    ("run_tool_uses", approve_yields, 1, "lesson.l5.not_list"),
    ("run_tool_uses", approve_return_inside_for, 1, "lesson.l5.returned_early"),
    ("run_tool_uses", approve_remembers_yes, 2, "lesson.l5.yes_reused"),
    ("run_tool_uses", approve_raises_dropped, 2, "lesson.l5.denied_dropped"),
    ("read_file", read_ignores_root, 1, "lesson.l6.read_file.wrong_root"),
    ("read_file", read_whole_file, 1, "lesson.l6.read_file.limit"),
    ("read_file", read_2000_bytes, 1, "lesson.l6.read_file.bytes"),  # bytes, not characters
    ("read_file", read_bytes_as_they_are, 1, "lesson.l6.read_file.not_str"),  # it was read: as bytes
    ("read_file", read_joins_strings, 1, "lesson.l6.read_file.path_root"),
    ("read_file", read_returns_refusal, 2, "lesson.l6.read_file.returned_refusal"),
    ("read_file", read_raises_value_error, 2, "lesson.l6.read_file.not_permission"),
]

# A loop that never sends the next request: it runs out of time, and the hint says why.
STALLED = [("run_agent", agent_never_resends, 2, "lesson.l2.run_agent.stalled")]


# --- run_agent (lesson 6), as source ----------------------------------------------------------

DROPS_DENIED = """
def drops_denied(content, impls, approve):
    return [r for r in run_tool_uses(content, impls, approve) if not r.get("is_error")]
"""

WRONG_RUN_AGENT_MORE = [
    (variant(("approve or (lambda name, given: False)", "approve")), 6, "lesson.l6.run_agent.approve_none"),
    (
        variant(("tokens_used += response.usage.input_tokens", "tokens_used = response.usage.input_tokens")),
        4,
        "lesson.l6.run_agent.budget_last_only",
    ),
    (
        DROPS_DENIED + variant(("results = run_tool_uses(", "results = drops_denied(")),
        6,
        "lesson.l6.run_agent.denied_dropped",
    ),
    (
        variant(
            (
                '{"role": "assistant", "content": response.content}',
                '{"role": "assistant", "content": [b for b in response.content if b.type != "thinking"]}',
            )
        ),
        1,
        "lesson.l2.keep_thinking",
    ),
    (variant(("if turns >= MAX_TURNS:", "if turns > MAX_TURNS:")), 3, "lesson.l6.run_agent.one_too_many"),
    (
        variant(
            (
                "def run_agent(client, user_input, tools, tool_impls, approve=None):\n    messages = [",
                "def run_agent(client, user_input, tools, tool_impls, approve=None, messages=[]):\n    messages += [",
            ),
        ),
        2,
        "lesson.l6.run_agent.stale_history",
    ),
    (
        variant(
            (
                '    while step in ("run_tools", "resend"):',
                '    while step in ("run_tools", "resend") and turns < MAX_TURNS:',
            ),
            (
                '        if turns >= MAX_TURNS:\n            return lessons.stopped("max_turns", "上限", turns, tokens_used)\n',
                "",
            ),
        ),
        3,
        "lesson.l6.run_agent.valve_not_named",
    ),
    (
        variant(("yield lessons.turn(turns, response, results)", "yield lessons.turn(turns, response, [])")),
        1,
        "lesson.l6.run_agent.yield_results",
    ),
    (
        variant(
            (
                "tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens\n    step",
                "tokens_used += response.usage.total_tokens\n    step",
            )
        ),
        1,
        "lesson.rule.usage",
    ),
]

# Right answers in other styles than the references': each must pass every point.
NO_YIELD_NO_RESEND = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls, approve)})
    return lessons.finished(response, 0, 0)
"""
STALLED_RUN_AGENT = [(NO_YIELD_NO_RESEND, 1, "lesson.l6.run_agent.not_generator_stalled")]


RIGHT_MORE = [
    ("run_tools", tools_right_as_blocks),
    ("run_agent", agent_right_while_true),
    ("next_step", step_right_match),
    ("signature_of", sig_right_tuples),
    ("signature_of", sig_right_compact),
    ("run_tool_uses", approve_right_flagged),
    ("run_tool_uses", approve_right_closed),
    ("read_file", read_right_commonpath),
    ("read_file", read_right_relative_to),
]
RIGHT_RUN_AGENT_MORE = [
    variant(
        ("    messages = [", "    approve = approve or (lambda *_: False)\n    messages = ["),
        ("approve or (lambda name, given: False)", "approve"),
    ),
]
