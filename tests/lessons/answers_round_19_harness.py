"""Round nineteen of a learner's whole harness (lesson 6's ``run_agent``, notebook 05): each wrong one with
the point that must catch it and the hint that must name it, and right ones in other styles.

Three passed: loops that send every API error again without end (a helper with ``while True`` and
``except Exception: continue``, ``anthropic.APIStatusError`` retried after a short sleep, a retry count
made afresh inside the retry loop) ended no check, since none sent an API error; point 9 now sends 529
Overloaded after the first response.
"""

from __future__ import annotations

from tests.lessons.answers6 import USED, variant

FIRST = "    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
LATER = "        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
COUNT_FIRST = f"    tokens_used += {USED}\n"
COUNT_LATER = f"        tokens_used += {USED}\n"

# a helper that sends until it works: every error tried again at once, without end ("the API is flaky")
SEND_UNTIL_IT_WORKS = variant(
    (
        "def run_agent(",
        """def send(client, tools, messages):
    while True:
        try:
            return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        except Exception:
            continue  # もう一度


def run_agent(""",
    ),
    (LATER, "        response = send(client, tools, messages)\n"),  # the later one first: it holds the first's text
    (FIRST, "    response = send(client, tools, messages)\n"),
)

# the later requests retried on any APIStatusError after a short sleep, for as long as it takes
SLEEP_AND_RETRY = variant(
    ("def run_agent(", "import time\n\nimport anthropic\n\n\ndef run_agent("),
    (
        LATER,
        """        while True:
            try:
                response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
                break
            except anthropic.APIStatusError:
                time.sleep(0.001)  # wait a moment and try again
""",
    ),
)

# a retry limit whose count is made afresh inside the retry loop: it never reaches its limit
RETRY_COUNT_RESET = variant(
    ("def run_agent(", "import anthropic\n\n\ndef run_agent("),
    (
        LATER,
        """        while True:
            tries = 0
            try:
                response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
                break
            except anthropic.APIError:
                tries += 1
                if tries > 3:
                    raise
""",
    ),
)

# tokens counted without the cache fields: with caching on, most of each prompt is left out
CACHE_LEFT_OUT = variant(
    (COUNT_LATER, "        tokens_used += response.usage.input_tokens + response.usage.output_tokens\n"),
    (COUNT_FIRST, "    tokens_used += response.usage.input_tokens + response.usage.output_tokens\n"),
)

# only the reply's tokens counted ("what the model wrote is what it costs")
OUTPUT_ONLY = variant(
    (COUNT_LATER, "        tokens_used += response.usage.output_tokens\n"),
    (COUNT_FIRST, "    tokens_used += response.usage.output_tokens\n"),
)

# each request's max_tokens counted instead of its usage
MAX_TOKENS_COUNTED = variant(
    (COUNT_LATER, "        tokens_used += 1024  # max_tokens per request\n"),
    (COUNT_FIRST, "    tokens_used += 1024\n"),
)

# valve 2 asked right after the next request, before next_step: the answer that crosses the budget is dropped
BUDGET_AFTER_THE_SEND = variant(
    (
        COUNT_LATER + "        step = next_step(response)\n",
        COUNT_LATER
        + """        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
        step = next_step(response)
""",
    ),
    (
        """        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
        turns += 1
""",
        "        turns += 1\n",
    ),
)

# valve 1 off by one: turns >= MAX_TURNS - 1 ("the last turn is the answer")
VALVE_1_MINUS_ONE = variant(("        if turns >= MAX_TURNS:\n", "        if turns >= MAX_TURNS - 1:\n"))

# valve 1 as turns > MAX_TURNS: one lap past the limit
VALVE_1_GREATER = variant(("        if turns >= MAX_TURNS:\n", "        if turns > MAX_TURNS:\n"))

# the step compared with a typo: "resent" for "resend", so a pause_turn ends the loop
RESEND_TYPO = variant(('    while step in ("run_tools", "resend"):\n', '    while step in ("run_tools", "resent"):\n'))

# the approval read as a word: only "no" refuses, anything else (None, "", "maybe") runs the tool
NO_WORD_ONLY = variant(
    (
        "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n",
        """            ask = approve or (lambda name, given: False)
            results = run_tool_uses(response.content, tool_impls, lambda name, given: ask(name, given) != "no")
""",
    ),
)

# valve 3 keyed on the tool_use ids: every response's ids are new, so a repeat is never seen
SPIN_BY_IDS = variant(
    (
        "            signature = signature_of(response.content)\n",
        '            signature = [b.id for b in response.content if b.type == "tool_use"]\n',
    ),
)

# valve 3 keyed on the response's text: two different calls with no text read as a spin
SPIN_BY_TEXT = variant(
    (
        "            signature = signature_of(response.content)\n",
        '            signature = "".join(b.text for b in response.content if b.type == "text")\n',
    ),
)

# the history copied on each lap ("keep the caller's list clean"), the copy filled and the old one sent
HISTORY_COPY_UNSENT = variant(
    (
        '        messages.append({"role": "assistant", "content": response.content})\n'
        "        if results:\n"
        '            messages.append({"role": "user", "content": results})\n',
        "        history = list(messages)\n"
        '        history.append({"role": "assistant", "content": response.content})\n'
        "        if results:\n"
        '            history.append({"role": "user", "content": results})\n',
    ),
)

# the ends as a dict on stop_reason, the refusals it knows listed; anything else read as an answer
DISPATCH_DEFAULT_FINISH = variant(
    (
        '    if step == "finish":\n        return lessons.finished(response, turns, tokens_used)\n'
        '    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)\n',
        """    ends = {
        "refusal": lambda: lessons.stopped("refusal", "断られました", turns, tokens_used),
        "model_context_window_exceeded": lambda: lessons.stopped("model_context_window_exceeded", "満杯", turns, tokens_used),
    }
    return ends.get(response.stop_reason, lambda: lessons.finished(response, turns, tokens_used))()
""",
    ),
)

WRONG_RUN_AGENT_ROUND_19 = [
    (SEND_UNTIL_IT_WORKS, 9, "lesson.l6.run_agent.api_error_retried"),
    (SLEEP_AND_RETRY, 9, "lesson.l6.run_agent.api_error_retried"),
    (RETRY_COUNT_RESET, 9, "lesson.l6.run_agent.api_error_retried"),
    (CACHE_LEFT_OUT, 4, "lesson.l6.run_agent.budget_cache_omitted"),
    (OUTPUT_ONLY, 4, "lesson.l6.run_agent.budget_output_only"),
    (MAX_TOKENS_COUNTED, 4, "lesson.l6.run_agent.budget_max_tokens"),
    (BUDGET_AFTER_THE_SEND, 4, "lesson.l6.run_agent.budget_after_answer"),
    (VALVE_1_MINUS_ONE, 3, "lesson.l6.run_agent.after_increment"),
    (VALVE_1_GREATER, 3, "lesson.l6.run_agent.one_too_many"),
    (RESEND_TYPO, 2, "lesson.l6.run_agent.pause_turn"),
    (NO_WORD_ONLY, 6, "lesson.l6.run_agent.denied_ran"),
    (SPIN_BY_IDS, 5, "lesson.l6.run_agent.missed_spinning"),
    (SPIN_BY_TEXT, 5, "lesson.l6.run_agent.normal_no_progress"),  # "the calls differ every turn"
    (HISTORY_COPY_UNSENT, 1, "lesson.l6.run_agent.history_not_grown"),
    (DISPATCH_DEFAULT_FINISH, 2, "lesson.l6.run_agent.max_tokens"),
]

# --- right ones, in other styles ------------------------------------------------------------------------

# a passing error retried a set number of times, then let out; every other error let out at once
BOUNDED_RETRY = variant(
    (
        "def run_agent(",
        """import anthropic


def send(client, tools, messages, tries=3):
    for attempt in range(tries):
        try:
            return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        except (anthropic.RateLimitError, anthropic.InternalServerError):
            if attempt == tries - 1:
                raise  # 回数を決めて送り直し、それでも駄目ならそのまま通す


def run_agent(""",
    ),
    (LATER, "        response = send(client, tools, messages)\n"),  # the later one first: it holds the first's text
    (FIRST, "    response = send(client, tools, messages)\n"),
)

# an API error caught and turned into a stop the Stepper can show
API_ERROR_STOPS = variant(
    ("def run_agent(", "import anthropic\n\n\ndef run_agent("),
    (
        LATER,
        """        try:
            response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        except anthropic.APIStatusError as err:  # the API is down: stop, with what went wrong
            return lessons.stopped("api_error", f"API error {err.status_code}", turns, tokens_used)
""",
    ),
)

# a set number of tries with a backoff that waits longer than a check's time limit in all: 4 s, then 8 s
BACKOFF_RETRY = variant(
    ("def run_agent(", "import time\n\nimport anthropic\n\n\ndef run_agent("),
    (
        LATER,
        """        for attempt in range(3):
            try:
                response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
                break
            except anthropic.APIStatusError:
                if attempt == 2:
                    raise
                time.sleep(4 * 2**attempt)  # 待ってから送り直す
""",
    ),
)

# the same wait with sleep imported by name: 6 s twice
SLEEP_BY_NAME_RETRY = variant(
    ("def run_agent(", "from time import sleep\n\nimport anthropic\n\n\ndef run_agent("),
    (
        LATER,
        """        tries = 0
        while True:
            try:
                response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
                break
            except anthropic.APIStatusError:
                tries += 1
                if tries == 3:
                    raise
                sleep(6)
""",
    ),
)

RIGHT_RUN_AGENT_ROUND_19 = [BOUNDED_RETRY, API_ERROR_STOPS, BACKOFF_RETRY, SLEEP_BY_NAME_RETRY]
