"""Wrong answers whose mistake hides behind something that looks careful: an ``except: pass`` that drops
the failed call's result, is_error written as "false", None or 1, a failure with no content, approve's
answer compared with "y", an end value yielded like a turn, a loop that stops on a denial, a history
sliced to its last messages, results spread into the history or a message with no role. Each maps every
point it misses to the hint that names its cause (the points after the first say the same cause, not a
symptom of it).
"""

from __future__ import annotations

import json

from harness_lab.lessons.lesson2 import run_tools as good_run_tools
from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.lessons.lesson5 import run_tool_uses as good_run_tool_uses
from tests.lessons.answers6 import variant

MODEL = "claude-sonnet-5"

# --- run_tools (lesson 2) ----------------------------------------------------------------------------


def tools_except_pass(content, impls):  # "a broken tool must not crash the agent": and nothing is said
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = impls[block.name](**block.input)
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
        except Exception:
            pass
    return results


def tools_flag_false_as_text(content, impls):  # is_error on every result, "false" written as JavaScript prints it
    return [dict(r, is_error=r.get("is_error", "false")) for r in good_run_tools(content, impls)]


def tools_flag_none(content, impls):  # is_error on every result: True, or None for "no error"
    return [dict(r, is_error=r.get("is_error")) for r in good_run_tools(content, impls)]


def tools_flag_as_number(content, impls):  # is_error on every result, as C writes it: 1 for a failure, 0 for none
    return [dict(r, is_error=int(bool(r.get("is_error")))) for r in good_run_tools(content, impls)]


def tools_failure_without_content(content, impls):  # "is_error says it all"
    return [
        {k: v for k, v in r.items() if k != "content"} if r.get("is_error") else r
        for r in good_run_tools(content, impls)
    ]


# --- run_tool_uses (lesson 5) ------------------------------------------------------------------------


def approve_compared_with_y(content, impls, approve):  # approve read as the prompt's letter, not a yes
    return good_run_tool_uses(content, impls, lambda name, tool_input: approve(name, tool_input) == "y")


def approve_except_pass(content, impls, approve):  # one try around the whole call, its except empty
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            if block.name in HIGH_IMPACT and not approve(block.name, block.input):
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": "拒否", "is_error": True})
                continue
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": str(impls[block.name](**block.input))}
            )
        except Exception:
            pass
    return results


def approve_flag_false_as_text(content, impls, approve):
    return [dict(r, is_error=r.get("is_error", "false")) for r in good_run_tool_uses(content, impls, approve)]


def approve_denial_without_content(content, impls, approve):  # the denial flagged, and nothing said
    return [
        {k: v for k, v in r.items() if k != "content"} if r.get("is_error") else r
        for r in good_run_tool_uses(content, impls, approve)
    ]


# --- run_agent (lesson 2) ----------------------------------------------------------------------------


def agent_except_returns_nothing(client, user_input, tools, impls):  # "never crash": the 400 for a lost call hidden
    try:
        messages = [{"role": "user", "content": user_input}]
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        while response.stop_reason == "tool_use":
            messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
            response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        return "".join(b.text for b in response.content if b.type == "text")
    except Exception:
        return ""


def agent_extends_results(client, user_input, tools, impls):  # the results' list spread into the history
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.extend(good_run_tools(response.content, impls))
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_without_role(client, user_input, tools, impls):  # the response appended as it is, with no role
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


# Every point each wrong piece misses, and the hint key each must get.
WRONG_SWALLOWED = [
    (
        "run_tools",
        tools_except_pass,
        {3: "lesson.l2.run_tools.failure_dropped", 4: "lesson.l2.run_tools.failure_dropped"},
    ),
    ("run_tools", tools_flag_false_as_text, {4: "lesson.rule.is_error_text"}),
    ("run_tools", tools_flag_none, {4: "lesson.rule.is_error_type"}),
    # point 3 said "no is_error: True" of a failure flagged 1
    ("run_tools", tools_flag_as_number, {3: "lesson.rule.is_error_type", 4: "lesson.rule.is_error_type"}),
    (
        "run_tools",
        tools_failure_without_content,
        {3: "lesson.rule.error_without_content", 4: "lesson.rule.error_without_content"},
    ),
    ("run_agent", agent_except_returns_nothing, {2: "lesson.swallowed_400", 3: "lesson.swallowed_400"}),
    # each was told only the API's English 400
    ("run_agent", agent_extends_results, {2: "lesson.rule.result_as_message", 3: "lesson.rule.result_as_message"}),
    ("run_agent", agent_without_role, {2: "lesson.rule.role_missing", 3: "lesson.rule.role_missing"}),
    (
        "run_tool_uses",
        approve_compared_with_y,
        {1: "lesson.l5.yes_refused", 2: "lesson.l5.yes_refused", 3: "lesson.l5.yes_refused"},
    ),
    ("run_tool_uses", approve_except_pass, {2: "lesson.l5.denied_dropped", 3: "lesson.l5.failure_dropped"}),
    ("run_tool_uses", approve_flag_false_as_text, {2: "lesson.rule.is_error_text", 3: "lesson.rule.is_error_text"}),
    (
        "run_tool_uses",
        approve_denial_without_content,
        {2: "lesson.rule.error_without_content", 3: "lesson.rule.error_without_content"},
    ),
]

# --- run_agent (lesson 6) ----------------------------------------------------------------------------

STOP_1 = 'return lessons.stopped("max_turns", "上限", turns, tokens_used)'
RESULTS_IN = "        if results:\n"
CREATE = "client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n        tokens_used"

LOOP_REQUEST = "        response = " + CREATE
GUARDED_REQUEST = (
    "        try:\n"
    "            response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
    "        except Exception:\n"
    '            return lessons.stopped("error", "失敗しました", turns, tokens_used)\n'
    "        tokens_used"
)
ASSISTANT_IN = '        messages.append({"role": "assistant", "content": response.content})\n'

WRONG_RUN_AGENT_SWALLOWED = [
    # the stop yielded as a turn is, the generator just taught: the loop goes on past it
    (variant((STOP_1, STOP_1.replace("return", "yield"))), {3: "lesson.l6.run_agent.end_yielded"}),
    # yielded, then a bare return: the run's end value is None
    (
        variant((STOP_1, STOP_1.replace("return", "yield") + "\n            return")),
        {3: "lesson.l6.run_agent.end_yielded"},
    ),
    # "an is_error result means something went wrong: stop the run", a denial included
    (
        variant(
            (
                RESULTS_IN,
                '        if any(r.get("is_error") for r in results):\n'
                '            return lessons.stopped("tool_error", "ツールが失敗しました", turns, tokens_used)\n'
                + RESULTS_IN,
            )
        ),
        {
            5: "lesson.l6.run_agent.ended_on_failure",
            6: "lesson.l6.run_agent.ended_on_refusal",
            7: "lesson.l6.run_agent.ended_on_refusal",
        },
    ),
    # the history's assistant turn left out, and the request's 400 turned into a stop of its own
    # (point 2 meets the dropped turn first, after a pause_turn, where no 400 comes: it names that)
    (
        variant((LOOP_REQUEST, GUARDED_REQUEST), (ASSISTANT_IN, "")),
        {**dict.fromkeys((1, 3, 4, 5, 6, 7), "lesson.swallowed_400"), 2: "lesson.l6.run_agent.resend_changed"},
    ),
    # "only the last few messages, to save tokens": the kept results lose their calls (point 4's cached
    # run goes three tool turns deep, past the cut)
    (
        variant((CREATE, CREATE.replace("messages=messages)", "messages=messages[-3:])"))),
        dict.fromkeys((1, 3, 4, 5), "lesson.history_cut"),
    ),
]
