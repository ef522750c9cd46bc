"""Valve 4, approval with a tiered policy (lesson 5 and lesson 6's exercise).

It belongs right before a tool runs: once a file is written or a request is sent, asking "are you
sure?" is too late (the colleague's wiring in lesson 6). The policy gives each tool a tier:
``allow`` runs it, ``ask`` waits for a human, ``deny`` never runs it. Either way, a call that does
not run still gets an ``is_error`` tool_result saying why, so no tool_use is left dangling.
``decide`` is the valve at work: the loop hands it to ``run_tool_uses``, which asks it about each
call right before that call would run.
"""

from __future__ import annotations

import copy
import reprlib
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any

from ..events import TIERS, ApprovalRequest, Decision
from ..fork import Record
from ..messages import tool_result
from ..state import RunState
from ..text import t
from ..tools import Tool, result_text

__all__ = [
    "Approval",
    "Policy",
    "Rule",
    "TIERS",
    "decide",
]


def _tier(value: str) -> str:
    if value not in TIERS:  # a typo such as "alow" must fail loudly, not fall through to allow
        raise ValueError(t("usage.tier", got=reprlib.repr(value), tiers=", ".join(TIERS)))
    return value


@dataclass(frozen=True)
class Rule:
    """A tier for calls of ``tool`` ("*" for any) whose input satisfies ``when`` (always, if None).

    ``Rule("write_file", "allow", when=lambda i: i["path"].startswith("sandbox/"))`` allows writes
    under sandbox/; other writes fall to the tool's tier or the default.
    """

    tool: str
    tier: str
    when: Callable[[dict[str, Any]], bool] | None = None

    def __post_init__(self) -> None:
        _tier(self.tier)

    def applies(self, name: str, tool_input: dict[str, Any]) -> str | None:
        """This rule's tier if it matches the call; a predicate that raises counts as deny."""
        if self.tool not in ("*", name):
            return None
        try:
            return self.tier if self.when is None or self.when(tool_input) else None
        except Exception:
            return "deny"


class Policy:
    """Per-tool tiers, argument rules and a default for everything unlisted.

    ``tier(name, input)`` collects every tier that applies (the tool's own entry and each matching
    rule) and returns the strictest: deny over ask over allow. With nothing listed, a tool marked
    ``high_impact`` gets ``high_impact`` (when set) and any other tool gets ``default``.
    """

    def __init__(
        self,
        tiers: Mapping[str, str] | None = None,
        default: str = "ask",
        rules: tuple[Rule, ...] | list[Rule] = (),
        high_impact: str | None = None,
    ) -> None:
        if tiers is not None and not isinstance(tiers, Mapping):  # Policy(["x"]): say what a policy is
            raise TypeError(t("usage.policy", got=reprlib.repr(tiers)))
        self.tiers = {name: _tier(tier) for name, tier in (tiers or {}).items()}
        self.default = _tier(default)
        self.rules = tuple(rules)
        self.high_impact = _tier(high_impact) if high_impact is not None else None

    def tier(self, name: str, tool_input: dict[str, Any] | None = None, high_impact: bool = False) -> str:
        tool_input = tool_input or {}
        found = [self.tiers[name]] if name in self.tiers else []
        found += [tier for rule in self.rules if (tier := rule.applies(name, tool_input))]
        if found:
            return max(found, key=TIERS.index)
        if high_impact and self.high_impact:
            return self.high_impact
        return self.default

    def __repr__(self) -> str:
        return f"Policy({self.tiers!r}, default={self.default!r}, rules={len(self.rules)}, high_impact={self.high_impact!r})"


# The lesson's two settings: ask before high-impact tools, let everything else through.
LESSON_POLICY = Policy(default="allow", high_impact="ask")


class Approval:
    """Decides each tool_use before it runs; ``ask`` goes to ``approver`` or to the generator's caller.

    ``approver(request: ApprovalRequest) -> Decision | bool``. It fails closed: an approver that
    raises denies, and with no approver the loop yields the request, where a plain ``next()`` denies.
    """

    name = "approval"
    step = "before_each_tool"

    def __init__(self, policy: Policy | None = None, approver: Callable[[ApprovalRequest], Any] | None = None):
        # Checked here: a wrong argument would otherwise fail deep inside the loop, at the first tool call.
        if policy is not None and not callable(getattr(policy, "tier", None)):
            raise TypeError(t("usage.approval_policy", got=reprlib.repr(policy)))
        if approver is not None and not callable(approver):
            raise TypeError(t("usage.approver", got=reprlib.repr(approver)))
        self.policy = policy if policy is not None else LESSON_POLICY
        self.approver = approver

    def __copy__(self) -> Approval:
        """A fork's copy: a policy of its own to change, and the same approver (the person who answers)."""
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.policy = copy.deepcopy(self.policy)
        return twin

    def check(self, state: RunState) -> str | None:
        return None  # this valve never stops the run; it decides call by call

    def tier(self, name: str, tool_input: dict[str, Any], high_impact: bool = False) -> str:
        return self.policy.tier(name, tool_input, high_impact)

    def ask(self, request: ApprovalRequest) -> Decision | None:
        """The approver's decision, or None when there is none and the loop must yield."""
        return None if self.approver is None else Decision.from_approver(self.approver, request)

    def reading(self, state: RunState) -> str:
        """The whole policy in one line: listed tools by name, then rules, high_impact and default.

        Showing only the default would hide that high-impact tools wait for a human.
        """
        policy = self.policy
        tiers = getattr(policy, "tiers", None) or {}
        parts = [f"{name}:{tiers[name]}" for name in sorted(tiers)]
        if getattr(policy, "rules", ()):
            parts.append(f"rules:{len(policy.rules)}")
        if getattr(policy, "high_impact", None) is not None:
            parts.append(f"high_impact:{policy.high_impact}")
        if getattr(policy, "default", None) is not None:
            parts.append(f"default:{policy.default}")
        return ", ".join(parts) or type(policy).__name__


def decide(
    valves: list[Any], request_number: int, record: Record, call: dict[str, Any], one: Tool
) -> Generator[ApprovalRequest, Any, dict[str, Any] | None]:
    """Valve 4 for one call, right before it would run: None to run it, else the tool_result that says why not.

    The valves at ``before_each_tool`` (gates) decide it, the strictest tier among them winning. For ``ask``,
    an answer already in the ``record`` (a fork reusing the original's) comes first, then a gate's
    approver, then the generator's caller, who gets the ``ApprovalRequest`` (a plain ``next()`` denies).
    """
    gates = [valve for valve in valves if valve.step == "before_each_tool"]
    tiers = [gate.tier(call["name"], call["input"], one.high_impact) for gate in gates]
    tier = max(tiers, key=TIERS.index, default="allow")
    if tier == "deny":  # forbidden by policy: the function is never entered
        return tool_result(call["id"], t("result.forbidden", name=call["name"]), True)
    if tier == "allow":
        return None
    decision = record.decided.get(call["id"])
    if decision is None:
        request = ApprovalRequest(request_number, call["id"], call["name"], call["input"])
        decision = next((d for gate in gates if (d := gate.ask(request)) is not None), None)
        if decision is None:
            decision = Decision.coerce((yield request))  # the caller answers; next() sends None: deny
        record.asked[call["id"]] = decision
    if decision.allowed:
        return None
    why = t("result.denied_reason", reason=decision.reason) if decision.reason else t("result.denied")
    return tool_result(call["id"], result_text(why), True)  # bounded, valid UTF-8
