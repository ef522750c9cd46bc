"""The fourth red-team of the lesson checks: wrong answers that passed, or got another cause's hint, and
right answers in the styles next to them, which must pass.

Each wrong entry: (piece, the wrong function, the point it fails (1-based), the hint key), as in
``answers.WRONG``; the lesson 6 entries are source text, as in ``answers6.WRONG_RUN_AGENT``.
"""

from __future__ import annotations

import textwrap

from harness_lab.lessons.lesson2 import run_tools as good_run_tools
from harness_lab.lessons.lesson5 import HIGH_IMPACT
from tests.lessons.answers6 import RIGHT_RUN_AGENT, variant
from tests.lessons.answers_more_loop import MODEL, _error, _result

# --- run_tools: one list for every call --------------------------------------------------------

RESULTS: list = []  # "cleared each call, so old results don't pile up"


def tools_one_list_cleared(content, impls):
    RESULTS.clear()
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            RESULTS.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            RESULTS.append(_error(block, err))
    return RESULTS


def tools_default_list_cleared(content, impls, results=[]):  # noqa: B006 (the mistake under test)
    del results[:]
    results.extend(good_run_tools(content, impls))
    return results


def tools_right_copy_of_one_list(content, impls):  # one list kept, but a new copy handed back each call
    return list(tools_one_list_cleared(content, impls))


def tools_error_extra_key(content, impls):  # the exception's type beside the result: no key the API takes
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append({**_error(block, err), "error_type": type(err).__name__})
    return results


# --- run_agent (lesson 2): where the results go -------------------------------------------------


def _loop(client, user_input, tools, impls, append, run_tools=good_run_tools):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        append(messages, response.content, run_tools(response.content, impls))
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_results_as_assistant(client, user_input, tools, impls):
    def append(messages, content, results):
        messages += [{"role": "assistant", "content": content}, {"role": "assistant", "content": results}]

    return _loop(client, user_input, tools, impls, append)


def agent_results_role_tool(client, user_input, tools, impls):  # another API's shape: one "tool" message per result
    def append(messages, content, results):
        messages.append({"role": "assistant", "content": content})
        messages += [{"role": "tool", "tool_call_id": r["tool_use_id"], "content": r["content"]} for r in results]

    return _loop(client, user_input, tools, impls, append)


def agent_results_in_the_assistant(client, user_input, tools, impls):  # calls and results in one message
    def append(messages, content, results):
        messages.append({"role": "assistant", "content": [*content, *results]})

    return _loop(client, user_input, tools, impls, append)


def agent_one_list_cleared(client, user_input, tools, impls):  # the lesson's loop, run_tools reusing its list
    def append(messages, content, results):
        messages += [{"role": "assistant", "content": content}, {"role": "user", "content": results}]

    return _loop(client, user_input, tools, impls, append, tools_one_list_cleared)


# --- run_tool_uses: one list for every call -----------------------------------------------------


def approve_default_list_cleared(content, impls, approve, results=[]):  # noqa: B006 (the mistake under test)
    results.clear()  # start each turn empty (the default list would otherwise pile up)
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append({**_result(block, "The user declined this action."), "is_error": True})
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_right_none_default(content, impls, approve, results=None):  # a default of None, a new list inside
    results = [] if results is None else results
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append({**_result(block, "The user declined this action."), "is_error": True})
            continue
        try:
            results.append(_result(block, str(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_error(block, err))
    return results


# --- run_agent: the model asked through another door of the client -----------------------------


def _streamed(client, **request):
    with client.messages.stream(**request) as stream:
        return stream.get_final_message()


def agent_right_streamed(client, user_input, tools, impls):  # each reply streamed, its final message kept
    messages = [{"role": "user", "content": user_input}]
    response = _streamed(client, model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _streamed(client, model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_right_with_options(client, user_input, tools, impls):  # retries and a timeout set per request
    def ask(messages):
        return client.with_options(max_retries=5, timeout=60).messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )

    messages = [{"role": "user", "content": user_input}]
    response = ask(messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = ask(messages)
    return "".join(b.text for b in response.content if b.type == "text")


# --- stop_message: the English word None, not a printed None ------------------------------------


def stop_right_in_english_prose(response):  # "None of its reasons..." is a sentence, not a missing field
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refusal":
        d = response.stop_details
        parts = ["The model declined this request."]
        parts.append(f"Category: {d.category}." if d.category else "No category was given.")
        parts.append(f"Reason: {d.explanation}" if d.explanation else "None of its reasons were given.")
        return " ".join(parts)
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
        return f"Stopped by {response.stop_reason}, so the answer was cut off. So far: {text}"
    return None


WRONG_REUSE = [
    ("run_tools", tools_one_list_cleared, 1, "lesson.l2.run_tools.reused_list"),
    ("run_tools", tools_default_list_cleared, 1, "lesson.l2.run_tools.reused_list"),
    ("run_tools", tools_error_extra_key, 4, "lesson.l2.result_extra_key"),
    ("run_agent", agent_results_as_assistant, 2, "lesson.l2.results_in_user"),
    ("run_agent", agent_results_role_tool, 2, "lesson.l2.results_in_user"),
    ("run_agent", agent_results_in_the_assistant, 3, "lesson.l2.results_in_user"),
    ("run_agent", agent_one_list_cleared, 2, "lesson.l2.results_overwritten"),
    ("run_tool_uses", approve_default_list_cleared, 3, "lesson.l5.reused_list"),
]
RIGHT_REUSE = [
    ("run_tools", tools_right_copy_of_one_list),
    ("run_tool_uses", approve_right_none_default),
    ("run_agent", agent_right_streamed),
    ("run_agent", agent_right_with_options),
    ("stop_message", stop_right_in_english_prose),
]


# --- run_agent (lesson 6), as source ----------------------------------------------------------

RUN = "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
# Valve 4 written inline, answering the first tool_use of the turn only.
FIRST_CALL_ONLY = variant(
    (
        RUN,
        """            block = next(b for b in response.content if b.type == "tool_use")
            if block.name in HIGH_IMPACT and not (approve and approve(block.name, block.input)):
                results = [{"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": "拒否"}]
            else:
                output = str(tool_impls[block.name](**block.input))
                results = [{"type": "tool_result", "tool_use_id": block.id, "content": output}]
""",
    )
)


def _inline_valve_4(when_it_raises: str) -> str:
    """Valve 4 written inline, every call answered; an approver that raises counts as ``when_it_raises``."""
    return variant(
        (
            RUN,
            f"""            for block in response.content:
                if block.type != "tool_use":
                    continue
                if block.name in HIGH_IMPACT:
                    try:
                        ok = bool(approve) and approve(block.name, block.input)
                    except Exception:
                        ok = {when_it_raises}
                    if not ok:
                        results.append({{"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": "拒否"}})
                        continue
                try:
                    output = str(tool_impls[block.name](**block.input))
                    results.append({{"type": "tool_result", "tool_use_id": block.id, "content": output}})
                except Exception as err:
                    results.append({{"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": str(err)}})
""",
        )
    )


# Valve 3's memory at module level, never reset: the next run compares its first turn with the last run's last.
GLOBAL_SIGNATURE = "last_signature = None\n" + variant(
    (
        "    turns, tokens_used, last_signature = 0, 0, None\n",
        "    global last_signature\n    turns, tokens_used = 0, 0\n",
    ),
)
# Valve 3's memory started from the first response: its first tool turn equals "the last".
SIGNATURE_FROM_THE_START = variant(
    (
        "    step = next_step(response)\n    while",
        "    step = next_step(response)\n    last_signature = signature_of(response.content)\n    while",
    ),
)
CREATE = "client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)"
CACHED = CREATE[:-1] + ', cache_control={"type": "ephemeral"})'
ADD = "tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens"
EVERY_TOKEN = (
    "tokens_used += (response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0)"
    " + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens)"
)
# One list for the results of every turn, cleared each time: the next turn rewrites the last one's message.
ONE_LIST = """
ONE_LIST = []


def one_list(content, impls, approve):
    ONE_LIST.clear()
    ONE_LIST.extend(run_tool_uses(content, impls, approve))
    return ONE_LIST
""" + variant(("results = run_tool_uses(", "results = one_list("))

WRONG_RUN_AGENT_REUSE = [
    (FIRST_CALL_ONLY, 6, "lesson.l6.run_agent.calls_unanswered"),
    (FIRST_CALL_ONLY, 7, "lesson.l6.run_agent.calls_unanswered"),
    (_inline_valve_4("True"), 6, "lesson.l6.run_agent.failed_open"),
    (GLOBAL_SIGNATURE, 5, "lesson.l6.run_agent.signature_carried"),
    (GLOBAL_SIGNATURE, 6, "lesson.l6.run_agent.signature_carried"),
    (SIGNATURE_FROM_THE_START, 1, "lesson.l6.run_agent.spun_at_once"),
    (SIGNATURE_FROM_THE_START, 7, "lesson.l6.run_agent.spun_at_once"),
    (  # caching asked for, the count still the uncached input and the output
        RIGHT_RUN_AGENT.replace(CREATE, CACHED).replace(
            ADD, "tokens_used += response.usage.input_tokens + response.usage.output_tokens"
        ),
        4,
        "lesson.l6.run_agent.budget_cache_omitted",
    ),
    (ONE_LIST, 1, "lesson.l2.results_overwritten"),
]
STREAMED = """
def ask(client, tools, messages):
    with client.messages.stream(model=MODEL, max_tokens=1024, tools=tools, messages=messages) as stream:
        return stream.get_final_message()
"""
# The loop as a callable object: its limits are the module variables its __call__ reads.
CALLABLE_OBJECT = (
    "class Harness:\n"
    + textwrap.indent(RIGHT_RUN_AGENT.replace("def run_agent(client,", "def __call__(self, client,"), "    ")
    + "\n\nrun_agent = Harness()\n"
)
RIGHT_RUN_AGENT_REUSE = [
    _inline_valve_4("False"),  # an approval that cannot be had is a no
    RIGHT_RUN_AGENT.replace(CREATE, CACHED).replace(ADD, EVERY_TOKEN),  # caching, every token counted
    STREAMED + RIGHT_RUN_AGENT.replace(CREATE, "ask(client, tools, messages)"),  # each reply streamed
    RIGHT_RUN_AGENT.replace("client.messages.create(", "client.with_options(max_retries=5).messages.create("),
    CALLABLE_OBJECT,
]
