"""Round twenty of the capstone's ``my_agent`` (notebook 05): wirings that pass one hidden scenario and break
another, each wrong one with the point that must catch it and its hint; and right ones in other styles.
"""

from __future__ import annotations

from tests.lessons.answers6 import variant
from tests.lessons.answers_capstone import POLICY, RIGHT_MY_AGENT

# the host matched with a regular expression anywhere in the URL
HOST_BY_REGEX = variant(
    ("def my_agent(", "import re\n\n\ndef my_agent("),
    (POLICY, '        if not re.search(r"hooks\\.example\\.com", url):\n'),
    base=RIGHT_MY_AGENT,
)

# the URL's start compared with each allowed host: "https://hooks.example.com.evil.net" starts the same
HOST_BY_PREFIX = variant(
    (POLICY, '        if not any(url.startswith(f"https://{host}") for host in ALLOWED_HOSTS):\n'),
    base=RIGHT_MY_AGENT,
)

# the post sent first, the policy read after it ("check what was sent")
POLICY_AFTER_SENDING = variant(
    ("        send(url, body)\n", ""),
    (POLICY, "        send(url, body)\n" + POLICY),
    base=RIGHT_MY_AGENT,
)

# an allowed host "needs no asking": the person is asked only about the others
ALLOWED_HOSTS_NOT_ASKED = variant(
    (
        "}, approve)",
        '}, lambda name, given: urlsplit(given["url"]).hostname in ALLOWED_HOSTS or bool(approve and approve(name, given)))',
    ),
    base=RIGHT_MY_AGENT,
)

# a failed send swallowed: the model is told it went
SEND_FAILURE_HIDDEN = variant(
    (
        "        send(url, body)\n",
        "        try:\n            send(url, body)\n        except Exception:\n            pass  # 送れなくても止めない\n",
    ),
    base=RIGHT_MY_AGENT,
)

# what was sent kept in a module-level set, so a post is never sent twice: a second run sends nothing
SENT_ONCE_FOR_GOOD = "SENT = set()\n" + variant(
    (
        "        send(url, body)\n",
        '        if (url, body) in SENT:\n            return "送信済みです"\n        SENT.add((url, body))\n        send(url, body)\n',
    ),
    base=RIGHT_MY_AGENT,
)

WRONG_MY_AGENT_ROUND_20 = [
    (HOST_BY_REGEX, 3, "lesson.capstone.lookalike_sent"),
    (HOST_BY_PREFIX, 3, "lesson.capstone.lookalike_sent"),
    (POLICY_AFTER_SENDING, 3, "lesson.capstone.checked_after_send"),
    (ALLOWED_HOSTS_NOT_ASKED, 1, "lesson.capstone.not_asked"),
    (SEND_FAILURE_HIDDEN, 1, "lesson.capstone.failure_hidden"),
    (SENT_ONCE_FOR_GOOD, 1, "lesson.capstone.kept_between_runs"),
]

# --- right ones, in other styles ------------------------------------------------------------------------

# the policy kept in the approval: a host not allowed is refused before the person is asked
POLICY_IN_THE_APPROVAL = """
def my_agent(client, user_input, send, approve=None):
    def allowed_and_approved(name, given):
        if name == "http_post" and urlsplit(given.get("url", "")).hostname not in ALLOWED_HOSTS:
            return False  # the policy says no: nobody is asked
        return approve is not None and approve(name, given)

    def http_post(url, body):
        send(url, body)
        return "sent"

    tools = [GET_TIME, HTTP_POST]
    return run_agent(client, user_input, tools, {"get_time": get_time, "http_post": http_post}, allowed_and_approved)
"""

# a class with the policy as a method, its instance's method the tool
POLICY_IN_A_CLASS = """
class Poster:
    def __init__(self, send):
        self.send = send

    def http_post(self, url, body):
        parts = urlsplit(url)
        if parts.scheme != "https" or parts.hostname not in ALLOWED_HOSTS:
            raise PermissionError(f"送信先 {parts.hostname} は許可されていません")
        self.send(url, body)
        return "送信しました"


def my_agent(client, user_input, send, approve=None):
    poster = Poster(send)
    impls = {"get_time": get_time, "http_post": poster.http_post}
    return (yield from run_agent(client, user_input, [GET_TIME, HTTP_POST], impls, approve))
"""

RIGHT_MY_AGENT_ROUND_20 = [POLICY_IN_THE_APPROVAL, POLICY_IN_A_CLASS]
