"""Round twenty-one of a learner's whole harness (lesson 6's ``run_agent``) and the capstone's ``my_agent``
(notebook 05): SDK examples copied in (the tool runner, a stream counted as it comes, count_tokens as the budget),
an approval that asks at the keyboard or takes no answer for a yes, one result dict for the whole turn, valve 3
keyed on the names alone, a typo inside http_post; each wrong one with the point that must catch it and its hint,
and right ones in other styles (a class, a match statement, a stream, print noise, a closure).

Six got another cause's hint: count_tokens as tokens_used was told its count was not passed to lessons.finished,
and its count_tokens requests were counted as requests to the model; a stream's output_tokens added twice (from
message_delta and from the final message) was told the same; the SDK's tool runner was told a turn was yielded
without its results; one result dict was told the results did not follow their calls; input() was told "It
raised: OSError"; a typo inside http_post was told to call send(url, body).
"""

from __future__ import annotations

from tests.lessons.answers6 import RUN, USED, variant
from tests.lessons.answers_capstone import POLICY, RIGHT_MY_AGENT

FIRST = "    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
LATER = "    " + FIRST
COUNT_FIRST = "    tokens_used += " + USED + "\n"
COUNT_LATER = "    " + COUNT_FIRST
APPROVER = "approve or (lambda name, given: False)"

# the budget read from count_tokens: "the SDK counts the tokens for me" (the next prompt's size alone)
COUNTED = "tokens_used = client.messages.count_tokens(model=MODEL, tools=tools, messages=messages).input_tokens\n"
START = "    turns, tokens_used, last_signature = 0, 0, None\n"
BUDGET_FROM_COUNT_TOKENS = variant(  # the later lines first: the first ones are in them, indented less
    (COUNT_LATER, "        " + COUNTED),
    (COUNT_FIRST, ""),
    (START + FIRST, START + FIRST + "    " + COUNTED),
)

# a stream whose message_delta output_tokens are added on top of the final message's usage
STREAM_OUTPUT_TWICE = variant(
    (
        "def run_agent(",
        """def send(client, tools, messages):
    streamed = 0
    with client.messages.stream(model=MODEL, max_tokens=1024, tools=tools, messages=messages) as stream:
        for event in stream:
            if event.type == "message_delta":
                streamed += event.usage.output_tokens  # 出力トークンをその場で数える
        response = stream.get_final_message()
    return response, streamed


def run_agent(""",
    ),
    (LATER, "        response, streamed = send(client, tools, messages)\n"),
    (FIRST, "    response, streamed = send(client, tools, messages)\n"),
    (COUNT_LATER, "        tokens_used += " + USED + " + streamed\n"),
    (COUNT_FIRST, "    tokens_used += " + USED + " + streamed\n"),
)

# the SDK's tool runner in place of the loop, its messages yielded as turns
SDK_TOOL_RUNNER = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    runner = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=1024, tools=tools, messages=[{"role": "user", "content": user_input}], max_iterations=MAX_TURNS
    )
    turns, tokens_used, last = 0, 0, None
    for message in runner:
        turns += 1
        tokens_used += message.usage.input_tokens + message.usage.output_tokens
        last = message
        yield lessons.turn(turns, message, [])
    return lessons.finished(last, turns, tokens_used)
"""

# the approval asked at the keyboard instead of through approve
APPROVAL_AT_THE_KEYBOARD = variant(
    (APPROVER, '(lambda name, given: input(f"{name} {given} を実行しますか？ [y/N] ") == "y")')
)

# no approver, or no answer, taken for a yes: only an explicit False refuses
NO_ANSWER_IS_A_YES = variant((APPROVER, "(lambda name, given: approve is None or approve(name, given) is not False)"))

# one result dict for the turn, refilled with each result and appended
ONE_RESULT_DICT = variant(
    (
        RUN,
        """            results, shared = [], {"type": "tool_result"}
            for result in run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False)):
                shared.update(result)
                results.append(shared)
""",
    )
)

# valve 3 keyed on the tools' names alone: search("clue 1"), then search("clue 2") looks like a repeat
SPIN_ON_THE_NAMES = variant(
    (
        "            signature = signature_of(response.content)\n",
        '            signature = tuple(sorted(b.name for b in response.content if b.type == "tool_use"))\n',
    )
)

# "tool_call", another API's word, decides whether the tools run
TOOLS_ON_TOOL_CALL = variant(('        if step == "run_tools":\n', '        if response.stop_reason == "tool_call":\n'))

WRONG_RUN_AGENT_ROUND_21 = [
    (BUDGET_FROM_COUNT_TOKENS, 1, "lesson.l6.run_agent.budget_count_tokens"),  # was end_tokens
    (STREAM_OUTPUT_TWICE, 1, "lesson.l6.run_agent.budget_output_twice"),  # was end_tokens
    (SDK_TOOL_RUNNER, 1, "lesson.tool_runner"),  # was yield_results
    (APPROVAL_AT_THE_KEYBOARD, 3, "lesson.rule.keyboard"),  # was lesson.raised
    (NO_ANSWER_IS_A_YES, 6, "lesson.l6.run_agent.no_approver_ran"),
    (ONE_RESULT_DICT, 3, "lesson.l2.run_tools.one_dict"),  # was results_first
    (SPIN_ON_THE_NAMES, 3, "lesson.l6.run_agent.no_progress_on_new_calls"),
    (TOOLS_ON_TOOL_CALL, 1, "lesson.l2.calls_unanswered"),
]

# Every point each of them misses, and the cause it names there: the first point's cause on the later ones too.
RUNNER = "lesson.tool_runner"
MISSED_RUN_AGENT_ROUND_21 = [
    (
        BUDGET_FROM_COUNT_TOKENS,
        {1: "lesson.l6.run_agent.budget_count_tokens", 4: "lesson.l6.run_agent.budget_count_tokens"},
    ),
    (
        STREAM_OUTPUT_TWICE,
        {1: "lesson.l6.run_agent.budget_output_twice", 4: "lesson.l6.run_agent.budget_output_twice"},
    ),  # 4 was budget_below
    (SDK_TOOL_RUNNER, dict.fromkeys(range(1, 8), RUNNER)),  # 6 was denied_not_error, 7 harmless_not_run
]

# --- right ones, in other styles ------------------------------------------------------------------------

# a stream printed as it comes, its final message used
STREAMED = variant(
    (
        "def run_agent(",
        """def send(client, tools, messages):
    with client.messages.stream(model=MODEL, max_tokens=1024, tools=tools, messages=messages) as stream:
        for text in stream.text_stream:
            print(text, end="", flush=True)
        return stream.get_final_message()


def run_agent(""",
    ),
    (LATER, "        response = send(client, tools, messages)\n"),
    (FIRST, "    response = send(client, tools, messages)\n"),
)

# a line printed for every turn
PRINTED_TURNS = variant(
    (
        "        yield lessons.turn(turns, response, results)\n",
        '        print(f"[turn {turns}] {response.stop_reason} tokens={tokens_used}")\n'
        "        yield lessons.turn(turns, response, results)\n",
    )
)

# the loop's state on an object, the generator a method of it
AS_A_CLASS = """
class Agent:
    def __init__(self, client, tools, impls, approve):
        self.client, self.tools, self.impls = client, tools, impls
        self.approve = approve or (lambda name, given: False)
        self.turns = self.tokens = 0
        self.last = None

    def send(self, messages):
        response = self.client.messages.create(model=MODEL, max_tokens=1024, tools=self.tools, messages=messages)
        u = response.usage
        self.tokens += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
        return response

    def run(self, user_input):
        messages = [{"role": "user", "content": user_input}]
        response = self.send(messages)
        while (step := next_step(response)) in ("run_tools", "resend"):
            if self.turns >= MAX_TURNS:
                return lessons.stopped("max_turns", "上限", self.turns, self.tokens)
            if self.tokens >= TOKEN_BUDGET:
                return lessons.stopped("token_budget", "予算", self.turns, self.tokens)
            self.turns += 1
            results = []
            if step == "run_tools":
                signature = signature_of(response.content)
                if signature == self.last:
                    return lessons.stopped("no_progress", "空回り", self.turns, self.tokens)
                self.last = signature
                results = run_tool_uses(response.content, self.impls, self.approve)
            messages.append({"role": "assistant", "content": response.content})
            if results:
                messages.append({"role": "user", "content": results})
            yield lessons.turn(self.turns, response, results)
            response = self.send(messages)
        if step == "finish":
            return lessons.finished(response, self.turns, self.tokens)
        return lessons.stopped(response.stop_reason, "止めました", self.turns, self.tokens)


def run_agent(client, user_input, tools, tool_impls, approve=None):
    return (yield from Agent(client, tools, tool_impls, approve).run(user_input))
"""

# a while True whose match on the step breaks out on anything but run_tools and resend
MATCHED = variant(
    (
        '    while step in ("run_tools", "resend"):\n',
        '    while True:\n        match step:\n            case "run_tools" | "resend":\n                pass\n'
        "            case _:\n                break\n",
    )
)

RIGHT_RUN_AGENT_ROUND_21 = [STREAMED, PRINTED_TURNS, AS_A_CLASS, MATCHED]

# --- the capstone ---------------------------------------------------------------------------------------

# a person asked at the keyboard in place of approve
CAPSTONE_AT_THE_KEYBOARD = variant(
    ("}, approve)", '}, lambda name, given: input(f"{given} に送りますか？ ") == "y")'), base=RIGHT_MY_AGENT
)

# no approver taken for a yes ("nobody is there to say no")
CAPSTONE_NO_APPROVER_SENDS = variant(
    ("}, approve)", "}, lambda name, given: True if approve is None else approve(name, given))"), base=RIGHT_MY_AGENT
)

# hostname misspelt in the policy: every post raises an AttributeError, told to the model as a failure
CAPSTONE_TYPO_IN_THE_POLICY = variant(
    (POLICY, "        if urlsplit(url).hostnme not in ALLOWED_HOSTS:\n"), base=RIGHT_MY_AGENT
)

WRONG_MY_AGENT_ROUND_21 = [
    (CAPSTONE_AT_THE_KEYBOARD, 1, "lesson.rule.keyboard"),  # was lesson.raised
    (CAPSTONE_NO_APPROVER_SENDS, 2, "lesson.capstone.sent_without_approver"),
    (CAPSTONE_TYPO_IN_THE_POLICY, 1, "lesson.capstone.own_code_failed"),  # was not_sent
]

# every point the typo inside http_post misses: nothing is ever sent, for the one cause
MISSED_MY_AGENT_ROUND_21 = [
    (
        CAPSTONE_TYPO_IN_THE_POLICY,
        {1: "lesson.capstone.own_code_failed", 4: "lesson.capstone.own_code_failed"},
    ),  # 4 was not_sent
]

# a closure makes the tool; a match on the URL's parts is the policy
CLOSURE_AND_MATCH = """
def make_poster(send):
    def http_post(url, body):
        match urlsplit(url):
            case parts if parts.scheme == "https" and parts.hostname in ALLOWED_HOSTS:
                send(url, body)
                return "sent"
            case _:
                raise PermissionError(f"{url} is not an allowed host")

    return http_post


def my_agent(client, user_input, send, approve=None):
    impls = {"get_time": get_time, "http_post": make_poster(send)}
    return run_agent(client, user_input, [GET_TIME, HTTP_POST], impls, approve)
"""

# each post printed before it goes
PRINTED_POSTS = variant(
    ("        send(url, body)\n", '        print(f"POST {url}: {body[:40]}")\n        send(url, body)\n'),
    base=RIGHT_MY_AGENT,
)

RIGHT_MY_AGENT_ROUND_21 = [CLOSURE_AND_MATCH, PRINTED_POSTS]
