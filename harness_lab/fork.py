"""What a run knows about its tool calls beyond its history: the record a fork answers from.

``run.fork(at=k)`` goes back to the moment turn k's response arrived and lets the learner change
that turn (lessons 3-5: what if it had gone otherwise?). A tool call's effect (a file written, a
POST sent) happens in the world, not in the history, so a fork must never run a call that already
ran: it answers it from the record instead. The record is three maps, keyed by tool_use id:

- ``ran``: the result of every call this run executed itself;
- ``replay``: the results of calls executed by the runs this one was forked from, every generation
  of them: a fork of a fork of a fork still answers from the original's record;
- ``edited``: results the learner rewrote for the fork's first turn (earlier turns are edited in
  the copied history itself, ``edit_history``);

and ``decided``, every answer a person gave to an ``ask``, so a fork re-asks nobody unless the
learner changes an answer. ``RunState.branch`` fills a fork's record with ``Record.branch``.

The record hands out and keeps copies: a result it answers with goes into a history the learner may
change in place, and such a change must not rewrite what a later fork replays.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import checks
from .events import Decision
from .messages import Block, tool_result
from .text import t

__all__ = ["Record", "edit_history", "fork_edits"]


@dataclass
class Record:
    """A run's record of its tool calls (see the module's docstring), by tool_use id."""

    ran: dict[str, Block] = field(default_factory=dict)
    replay: dict[str, Block] = field(default_factory=dict)
    edited: dict[str, Block] = field(default_factory=dict)
    decided: dict[str, Decision] = field(default_factory=dict)
    asked: dict[str, Decision] = field(default_factory=dict)  # answers of the turn under way

    def edit(self, call_id: str) -> Block | None:
        """The result the learner wrote for this call, if any."""
        return copy.deepcopy(self.edited.get(call_id))

    def replayed(self, call_id: str) -> Block | None:
        """The result this call got when it ran in an earlier generation, if it did."""
        return copy.deepcopy(self.replay.get(call_id))

    def keep(self, call_id: str, result: Block) -> None:
        """A call that ran here (or was started and cut short: its effect is unknown, so never again)."""
        self.ran[call_id] = copy.deepcopy(result)

    def settle(self) -> None:
        """The turn is committed: its answers to asks count from now on. A turn cut short at an
        approval is never committed, so a resume asks again."""
        self.decided.update(self.asked)
        self.asked = {}

    def branch(self, calls: set[str], edits: Mapping[str, str], decisions: Mapping[str, Any], rerun: bool) -> Record:
        """The record of a fork whose first turn makes the tool ``calls``.

        It replays everything that ran here or in any earlier generation (nothing, with ``rerun``),
        keeps this run's edits of those calls unless ``edits`` rewrites them, and every answer given
        so far unless ``decisions`` changes it.
        """
        mine = {i: r for i, r in self.edited.items() if i in calls}
        mine |= {i: tool_result(i, text) for i, text in edits.items() if i in calls}
        return Record(
            replay={} if rerun else copy.deepcopy({**self.replay, **self.ran}),
            edited=copy.deepcopy(mine),
            decided={**self.decided, **{i: Decision.coerce(d) for i, d in decisions.items()}},
        )


def fork_edits(
    at: int, results: Mapping[str, Any], decisions: Mapping[str, Any], earlier: set[str], calls: set[str]
) -> dict[str, str]:
    """``run.fork``'s edits checked: result texts by the id of a call of turns up to ``at``
    (``earlier``), decisions by the id of a call of turn ``at`` itself (``calls``)."""
    for given, ids in ((results, earlier), (decisions, calls)):
        if unknown := sorted(set(given) - ids):
            raise ValueError(t("usage.fork_ids", ids=", ".join(unknown), at=at, known=", ".join(sorted(ids)) or "-"))
    return {i: checks.text(text, "results") for i, text in results.items()}


def edit_history(messages: list[dict[str, Any]], edits: Mapping[str, str], ran: set[str]) -> None:
    """Rewrite, in place, the tool_results of ``messages`` whose ids ``edits`` names (a fork's own copy).

    The learner's text is what the tool answered, so a call that ran loses its error mark; a call that
    never ran (refused, forbidden, unknown) keeps its mark: the edit rewords the refusal."""
    for message in messages:
        for block in message["content"] if isinstance(message["content"], list) else ():
            if _is_result(block) and block["tool_use_id"] in edits:
                refused = block.get("is_error") and block["tool_use_id"] not in ran
                block.update(tool_result(block["tool_use_id"], edits[block["tool_use_id"]], bool(refused)))
                if not refused:
                    block.pop("is_error", None)


def _is_result(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "tool_result"
