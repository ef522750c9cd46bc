"""Lesson 6's ``get_time`` and lesson 5's ``http_post`` (which only records what it would send).

``http_post`` is marked ``high_impact``, so the approval valve asks before it runs; it sends nothing
anyway, so a notebook demo can never reach the network.
"""

from __future__ import annotations

from datetime import datetime

from ..text import Phrase, t
from .definition import Tool, tool

__all__ = ["get_time", "http_post", "make_http_post"]


@tool(name="get_time", description=Phrase("tool.get_time"))
def get_time() -> str:
    """The current local time, ISO 8601 with its UTC offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def make_http_post(outbox: list[dict[str, str]] | None = None) -> Tool:
    """A high-impact ``http_post`` that only appends ``{"url", "body"}`` to ``outbox`` (its ``.sent``)."""
    sent = outbox if outbox is not None else []

    def http_post(url: str, body: str) -> str:
        """Record an HTTP POST instead of sending it.

        Args:
            url: where the request would go
            body: the request body
        """
        sent.append({"url": url, "body": body})
        return t("http.recorded", url=url, chars=len(body))

    made = tool(http_post, description=Phrase("tool.http_post"), high_impact=True)
    made.sent = sent  # type: ignore[attr-defined]  # this one Tool carries its outbox (lesson 5 reads it)
    return made


http_post = make_http_post()
