"""Round twenty of a learner's whole harness (lesson 6's ``run_agent``, notebook 05): each wrong one with
the point that must catch it and the hint that must name it, and right ones in other styles.

A bounded retry that waits with ``await asyncio.sleep(...)`` inside ``asyncio.run`` was told "stalled" by
point 9: its waits were real, and longer than the check's time limit. They now pass at once, as
``time.sleep``'s do. A yes kept by tool name for the rest of the run (a set of approved tools) passed: no
check asked about one tool twice in a run with a yes, then a no. Results reversed in the yielded turn were
told they were yielded after the next request.
"""

from __future__ import annotations

from tests.lessons.answers6 import RUN, USED, variant

FIRST = "    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
LATER = "        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"

# an async retry with no count: every APIStatusError waited out and sent again, for as long as it takes
ASYNC_RETRY_FOREVER = variant(
    (
        "def run_agent(",
        """import asyncio

import anthropic


async def send(client, tools, messages):
    while True:
        try:
            return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        except anthropic.APIStatusError:
            await asyncio.sleep(2)  # the API comes back sooner or later


def run_agent(""",
    ),
    (LATER, "        response = asyncio.run(send(client, tools, messages))\n"),
)

COUNT_LATER = f"        tokens_used += {USED}\n"
APPEND = '        messages.append({"role": "assistant", "content": response.content})\n'
WHILE = '    while step in ("run_tools", "resend"):\n'
SPIN = "            signature = signature_of(response.content)\n"

# the budget made the last response's tokens: "tokens_used is what this turn cost"
BUDGET_PER_TURN = variant((COUNT_LATER, f"        tokens_used = {USED}\n"))

# only the cached part of the prompt counted: "the cache is what grows"
BUDGET_CACHE_READ_ONLY = variant((USED, "(response.usage.cache_read_input_tokens or 0)"))  # both counts

# valve 3 keyed on what the model said beside its calls
SPIN_ON_THE_TEXT = variant(
    (SPIN, '            signature = "".join(b.text for b in response.content if b.type == "text")\n')
)

# valve 3 keyed on the last call alone (its name and input): two calls with the first changed look the same
SPIN_ON_THE_LAST_CALL = variant(
    (
        SPIN,
        '            last = [b for b in response.content if b.type == "tool_use"][-1]\n'
        "            signature = (last.name, json.dumps(last.input, sort_keys=True))\n",
    )
)

# only tool_use keeps the loop going: a pause_turn ends it as a stop
PAUSE_AS_A_STOP = variant((WHILE, '    while step == "run_tools":\n'))

# every step but "finish" goes round again: a refusal is sent again and again
REFUSAL_SENT_AGAIN = variant((WHILE, '    while step != "finish":\n'))

# whatever ended the loop is told as an answer: max_tokens' cut answer too
CUT_ANSWER_AS_FINISHED = variant(
    (
        '    if step == "finish":\n        return lessons.finished(response, turns, tokens_used)\n'
        '    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)\n',
        "    return lessons.finished(response, turns, tokens_used)  # 終わったので答えを返す\n",
    )
)

# the thinking blocks left out of the history ("they are only the model's notes")
THINKING_DROPPED = variant(
    (
        APPEND,
        '        messages.append({"role": "assistant", "content": [b for b in response.content if b.type != "thinking"]})\n',
    )
)

# the results sent back as the assistant's message
RESULTS_AS_ASSISTANT = variant(
    (
        '            messages.append({"role": "user", "content": results})\n',
        '            messages.append({"role": "assistant", "content": results})\n',
    )
)

# a yes kept by tool name for the rest of the run: asked once, then never again ("already approved")
APPROVAL_CACHED_BY_NAME = variant(
    (
        "    turns, tokens_used, last_signature = 0, 0, None\n",
        """    turns, tokens_used, last_signature = 0, 0, None
    approved = set()  # 一度「はい」をもらったツール

    def ask_once(name, given):
        if name in approved:
            return True
        if approve is not None and approve(name, given):
            approved.add(name)
            return True
        return False
""",
    ),
    ("approve or (lambda name, given: False)", "ask_once"),
)

# the turn counted per call: two calls in one turn use up two turns
TURNS_PER_CALL = variant(
    ("        turns += 1\n", '        turns += max(1, sum(b.type == "tool_use" for b in response.content))\n')
)

# the results put back newest first (reversed "so the latest is on top")
RESULTS_REVERSED = variant((RUN, RUN + "            results.reverse()  # 新しい結果を先頭に\n"))

# no approver given: every high-impact tool allowed ("nobody is there to say no")
NO_APPROVER_ALLOWS = variant(("approve or (lambda name, given: False)", "approve or (lambda name, given: True)"))

WRONG_RUN_AGENT_ROUND_20 = [
    (ASYNC_RETRY_FOREVER, 9, "lesson.l6.run_agent.api_error_retried"),
    (BUDGET_PER_TURN, 4, "lesson.l6.run_agent.budget_last_only"),
    (BUDGET_CACHE_READ_ONLY, 4, "lesson.l6.run_agent.budget_not_counted"),  # it says what to add
    (SPIN_ON_THE_TEXT, 5, "lesson.l6.run_agent.normal_no_progress"),
    (SPIN_ON_THE_LAST_CALL, 5, "lesson.l6.run_agent.spin_reordered"),
    (PAUSE_AS_A_STOP, 2, "lesson.l6.run_agent.pause_turn"),
    (REFUSAL_SENT_AGAIN, 2, "lesson.l6.run_agent.went_on_after_cut"),  # max_tokens comes first
    (CUT_ANSWER_AS_FINISHED, 2, "lesson.l6.run_agent.max_tokens"),
    (THINKING_DROPPED, 1, "lesson.l2.keep_thinking"),
    (RESULTS_AS_ASSISTANT, 1, "lesson.l2.results_in_user"),
    (APPROVAL_CACHED_BY_NAME, 6, "lesson.l6.run_agent.one_answer_per_turn"),
    (TURNS_PER_CALL, 3, "lesson.l6.run_agent.turns_per_call"),
    (RESULTS_REVERSED, 3, "lesson.l6.run_agent.results_order"),  # was told it yielded late
    (NO_APPROVER_ALLOWS, 6, "lesson.l6.run_agent.no_approver_ran"),
]

# --- right ones, in other styles ------------------------------------------------------------------------

# an async retry with a backoff (5 s, then 10 s), run with asyncio.run: three tries, then the error let out
ASYNC_BACKOFF_RETRY = variant(
    (
        "def run_agent(",
        """import asyncio

import anthropic


async def send_with_retry(client, tools, messages, tries=3):
    for attempt in range(tries):
        try:
            return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        except anthropic.APIStatusError:
            if attempt == tries - 1:
                raise
            await asyncio.sleep(5 * 2**attempt)  # 5秒、10秒と待ってから送り直す


def run_agent(""",
    ),
    (LATER, "        response = asyncio.run(send_with_retry(client, tools, messages))\n"),
    (FIRST, "    response = asyncio.run(send_with_retry(client, tools, messages))\n"),
)

# the same with sleep imported by name and an event loop of its own: 15 s between the two tries
ASYNC_SLEEP_BY_NAME_RETRY = variant(
    (
        "def run_agent(",
        """import asyncio
from asyncio import sleep

import anthropic


async def create_twice(client, **request):
    try:
        return client.messages.create(**request)
    except (anthropic.RateLimitError, anthropic.InternalServerError):
        await sleep(15)  # one more try after a pause
        return client.messages.create(**request)


def run_agent(""",
    ),
    (
        LATER,
        "        response = asyncio.new_event_loop().run_until_complete(\n"
        "            create_twice(client, model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
        "        )\n",
    ),
)

RIGHT_RUN_AGENT_ROUND_20 = [ASYNC_BACKOFF_RETRY, ASYNC_SLEEP_BY_NAME_RETRY]
