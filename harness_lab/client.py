"""One call to get a client: live Claude with a key, the offline emulator without (every lesson).

``connect()`` returns a real ``anthropic.Anthropic`` either way, so a notebook's code never changes
between the two. The live client is pinned to Anthropic's own URL: the key in ``ANTHROPIC_API_KEY``
is never sent anywhere else, whatever ``ANTHROPIC_BASE_URL`` says. The emulated one carries a dummy
key and never touches the network.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import anthropic

from .emulator import emulated_client, emulator_of
from .model import model_id
from .text import t

__all__ = ["ANTHROPIC_URL", "MODEL", "connect", "is_live", "mode_line"]

MODEL = model_id()  # chosen when the package is imported; ``model_id()`` reads the variable anew
ANTHROPIC_URL = "https://api.anthropic.com"


def connect(
    scenario: Any = None,
    *,
    live: bool | None = None,
    model: str | None = None,
    faults: dict[str, Any] | None = None,
    **client_kwargs: Any,
) -> anthropic.Anthropic:
    """A live client when ``ANTHROPIC_API_KEY`` is set and ``live`` is not ``False``, else an emulated one.

    ``scenario`` (a name like ``"lesson6"``, a list of replies, a policy function or an ``Emulator``)
    picks the offline script and ``faults=...`` schedules emulated failures; ``client_kwargs``
    (``max_retries=...``, ``timeout=...``) go to the client in both modes. ``live=True`` without a key
    raises a RuntimeError instead of falling back. ``model`` is remembered on the client for
    ``mode_line``; requests still name their own model.

    Live, a scenario name is ignored silently: a lesson's ``connect("weather")`` must keep running
    once a key is set. A script of replies or ``faults`` would change what the learner sees, so
    dropping one says so in a warning.
    """
    key = os.environ.get("ANTHROPIC_API_KEY") or None
    if live is True and key is None:
        raise RuntimeError(t("client.live_no_key"))
    if key is not None and live is not False:
        ignored = ["scenario"] if scenario is not None and not isinstance(scenario, str) else []
        ignored += ["faults"] if faults else []
        if ignored:
            warnings.warn(t("client.live_ignores", names=", ".join(ignored)), stacklevel=2)
        client = anthropic.Anthropic(api_key=key, base_url=ANTHROPIC_URL, **client_kwargs)
    else:
        client = emulated_client(scenario if scenario is not None else "lesson6", faults=faults, **client_kwargs)
    client._harness_lab_model = model or MODEL  # type: ignore[attr-defined]  # for mode_line, on the SDK's client
    return client


def is_live(client: Any) -> bool:
    """True for a client that talks to the real API."""
    return emulator_of(client) is None


def mode_line(client: Any) -> str:
    """One learner-facing line saying which mode is active (for a notebook's setup cell)."""
    model = getattr(client, "_harness_lab_model", MODEL)
    emulator = emulator_of(client)
    if emulator is None:  # is_live
        return t("client.mode_live", model=model)
    return t("client.mode_offline", scenario=emulator.name, model=model)
