"""The capstone's reference in English: ``my_agent`` as an English notebook 05 runs it.

The same code as ``capstone.my_agent``, token for token (strings and comments aside), with what the
model reads in English: the tool descriptions, the result of a send, the refusal of a host outside
the policy, and the stop messages of the loop it wires in (``english.run_agent``, lesson 6's twin).
``capstone.MY_AGENT`` hands it out in an English kernel (``Piece.english``).
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from .english import run_agent
from .scenes import definitions

__all__ = ["ALLOWED_HOSTS", "GET_TIME", "HTTP_POST", "get_time", "my_agent"]

ALLOWED_HOSTS = {"hooks.example.com"}  # the policy: hosts it may send to (capstone.ALLOWED_HOSTS, the same set)
GET_TIME, HTTP_POST = definitions(
    get_time=("Return the current time as an ISO 8601 string", {}),
    http_post=("POST a body to a URL on an allowed host", {"url": {"type": "string"}, "body": {"type": "string"}}),
)


def get_time():
    return datetime.now().astimezone().isoformat(timespec="seconds")


def my_agent(client, user_input, send, approve=None):
    """run_agent wired with your own http_post: it sends only to an allowed host, and only after a yes"""

    def http_post(url, body):
        host = urlsplit(url).hostname  # compare the host name of the URL split into parts, not a string prefix
        if host not in ALLOWED_HOSTS:
            raise PermissionError(f"The policy does not allow sending to {host}")
        send(url, body)
        return "sent"

    impls = {"get_time": get_time, "http_post": http_post}
    return run_agent(client, user_input, [GET_TIME, HTTP_POST], impls, approve)  # valve 4 asks about http_post
