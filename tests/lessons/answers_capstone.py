"""The capstone's my_agent, right and wrong: source text run as answers6's lesson 6 variants are, each wrong one
with the hint it must get.
"""

from __future__ import annotations

from tests.lessons.answers6 import variant

# --- the capstone ----------------------------------------------------------------------------------

RIGHT_MY_AGENT = """
def my_agent(client, user_input, send, approve=None):
    def http_post(url, body):
        if urlsplit(url).hostname not in ALLOWED_HOSTS:
            raise PermissionError(f"{url} には送れません")
        send(url, body)
        return "送信しました"

    return run_agent(client, user_input, [GET_TIME, HTTP_POST], {"get_time": get_time, "http_post": http_post}, approve)
"""


POLICY = "        if urlsplit(url).hostname not in ALLOWED_HOSTS:\n"


WRONG_MY_AGENT = [
    (  # the run's events pass through, its end value is lost
        variant(("    return run_agent(", "    yield from run_agent("), base=RIGHT_MY_AGENT),
        1,
        "lesson.capstone.no_end",
    ),
    (  # a logging wrapper around an approve that may be None
        variant(
            (
                '{"get_time": get_time, "http_post": http_post}, approve)',
                '{"get_time": get_time, "http_post": http_post}, lambda n, g: approve(n, g))',
            ),
            base=RIGHT_MY_AGENT,
        ),
        2,
        "lesson.l6.run_agent.approve_none",
    ),
    (
        variant((POLICY, '        if not url.startswith("https://hooks.example.com"):\n'), base=RIGHT_MY_AGENT),
        3,
        "lesson.capstone.lookalike_sent",
    ),
    (
        variant(
            (POLICY, "        if not any(urlsplit(url).hostname.endswith(h) for h in ALLOWED_HOSTS):\n"),
            base=RIGHT_MY_AGENT,
        ),
        3,
        "lesson.capstone.lookalike_sent",
    ),
    (
        variant((POLICY, '        if "hooks.example.com" not in url:\n'), base=RIGHT_MY_AGENT),
        3,
        "lesson.capstone.lookalike_sent",
    ),
    (
        variant(
            ('            raise PermissionError(f"{url} には送れません")', '            return "送れません"'),
            base=RIGHT_MY_AGENT,
        ),
        3,
        "lesson.capstone.refusal_not_error",
    ),
    (variant(("[GET_TIME, HTTP_POST]", "[GET_TIME]"), base=RIGHT_MY_AGENT), 1, "lesson.capstone.not_defined"),
    (variant(("[GET_TIME, HTTP_POST]", "[HTTP_POST]"), base=RIGHT_MY_AGENT), 1, "lesson.capstone.get_time_missing"),
    (variant(('{"get_time": get_time, ', "{"), base=RIGHT_MY_AGENT), 1, "lesson.capstone.get_time_missing"),
    (variant(("        send(url, body)\n", ""), base=RIGHT_MY_AGENT), 1, "lesson.capstone.not_sent"),
    (
        variant(("send(url, body)", "send(url, body.upper() + '!')"), base=RIGHT_MY_AGENT),
        1,
        "lesson.capstone.sent_wrong",
    ),
    (variant(("}, approve)", "}, lambda name, given: True)"), base=RIGHT_MY_AGENT), 1, "lesson.capstone.not_asked"),
    (variant(("}, approve)", "})"), base=RIGHT_MY_AGENT), 1, "lesson.capstone.approve_not_passed"),
    # a TypeError inside my_agent is its own cause, not my_agent's def line
    (variant(("}, approve)", "}, approver=approve)"), base=RIGHT_MY_AGENT), 1, "lesson.raised"),
    (
        variant(("}, approve)", "}, approve or (lambda name, given: True))"), base=RIGHT_MY_AGENT),
        2,
        "lesson.capstone.sent_without_approver",
    ),
    (
        variant(
            ("}, approve)", "}, lambda n, g: approve is not None and (approve(n, g) or True))"), base=RIGHT_MY_AGENT
        ),
        2,
        "lesson.capstone.sent_denied",
    ),
    (
        variant(
            (
                "    def http_post(url, body):\n",
                "    def http_post(url, body):\n        if approve is None or not approve('http_post', {'url': url, 'body': body}):\n            return '送りませんでした'\n",
            ),
            ("}, approve)", "}, lambda name, given: True)"),
            base=RIGHT_MY_AGENT,
        ),
        2,
        "lesson.capstone.denied_not_error",
    ),
    (
        variant(
            ("    return run_agent(", "    return list(run_agent("),
            ("}, approve)", "}, approve))"),
            base=RIGHT_MY_AGENT,
        ),
        1,
        "lesson.capstone.not_generator",
    ),
    (
        variant(
            ("def my_agent(client, user_input, send, approve=None):", "def my_agent(client, user_input):"),
            base=RIGHT_MY_AGENT,
        ),
        1,
        "lesson.capstone.signature",
    ),
    (
        variant(
            (
                "    return run_agent(",
                "    lessons.PIECES  # a loop of its own, with valve 4 but no valve 3\n    return loop(send, ",
            ),
            base=RIGHT_MY_AGENT,
        )
        + """

def loop(send, client, user_input, tools, impls, approve):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    turns = 0
    while response.stop_reason == "tool_use" and turns < 8:
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        results = run_tool_uses(response.content, impls, approve or (lambda name, given: False))
        messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return lessons.finished(response, turns)
""",
        4,
        "lesson.capstone.sent_again",
    ),
    (  # a wrapper that names approve's arguments, one of them not as the notebook's approve(name, tool_input) does
        variant(
            (
                '{"get_time": get_time, "http_post": http_post}, approve)',
                '{"get_time": get_time, "http_post": http_post}, approve and (lambda n, g: approve(name=n, input=g)))',
            ),
            base=RIGHT_MY_AGENT,
        ),
        1,
        "lesson.l6.run_agent.approve_call",
    ),
    (  # a wrapper that hands approve the whole question as one dict
        variant(
            (
                '{"get_time": get_time, "http_post": http_post}, approve)',
                '{"get_time": get_time, "http_post": http_post}, approve and (lambda n, g: approve({"name": n, **g})))',
            ),
            base=RIGHT_MY_AGENT,
        ),
        2,
        "lesson.l6.run_agent.approve_call",
    ),
]

# approve wrapped, with its arguments named as the notebook's approve(name, tool_input) names them
RIGHT_MY_AGENT_WRAPPED = variant(
    (
        '{"get_time": get_time, "http_post": http_post}, approve)',
        '{"get_time": get_time, "http_post": http_post}, approve and (lambda n, g: approve(name=n, tool_input=g)))',
    ),
    base=RIGHT_MY_AGENT,
)
