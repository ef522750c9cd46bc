"""Replay a recorded run exactly (lesson 6: show a live run offline).

A cassette is JSON: ``{"version": 1, "interactions": [{"request": {"method", "path", "body"},
"response": {"status", "headers", "body"}}, ...]}``, written by ``harness_lab.trace``. The replay
answers a request whose body equals a recorded one (key order aside) with that recorded response;
identical requests recorded several times (a retry after a 529, say) are answered in recorded order,
the last one repeating.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .ids import digest_of

__all__ = ["CASSETTE_VERSION", "Replay"]

CASSETTE_VERSION = 1


class Replay:
    def __init__(self, interactions: list[dict]) -> None:
        self._answers: dict[tuple, list[dict]] = {}
        self._served: dict[tuple, int] = {}
        for item in interactions:
            key = self._key(item["request"].get("path", "/v1/messages"), item["request"]["body"])
            self._answers.setdefault(key, []).append(item["response"])

    @staticmethod
    def _key(path: str, body: Any) -> tuple:
        # The digest ignores "stream"; a replay must not, since the answer's form (JSON or SSE) differs.
        if not isinstance(body, dict):
            return (path, False, str(body).encode())
        return (path, bool(body.get("stream")), digest_of(body))

    @classmethod
    def load(cls, cassette: Any) -> Replay:
        """From a path, or from an already loaded cassette dict."""
        data = cassette if isinstance(cassette, dict) else json.loads(Path(cassette).read_text(encoding="utf-8"))
        if data.get("version") != CASSETTE_VERSION:
            raise ValueError(f"unsupported cassette version {data.get('version')!r}")
        return cls(data["interactions"])

    def answer(self, path: str, request: dict) -> tuple[int, dict, Any]:
        key = self._key(path, request)
        answers = self._answers.get(key)
        if not answers:
            body = {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "cassette: no recorded response for this request",
                },
                "request_id": "req_011Cnotrecorded",
            }
            headers = {"request-id": body["request_id"], "content-type": "application/json", "x-should-retry": "false"}
            return 400, headers, body
        served = self._served.get(key, 0)
        self._served[key] = served + 1
        response = answers[min(served, len(answers) - 1)]
        return response["status"], dict(response.get("headers") or {}), response["body"]
