"""The learner's policy object, read and rewritten in its own shape (level 1, criterion 1).

Runs only in a grader's child, beside the learner's code: ``POLICY`` may be a dict of tool name →
tier, a dict of tier → names (set, list or tuple), or a function from name to tier, and its tiers
may be spelled "ASK", "Ask" or an Enum. ``rewrite`` makes that same object say a new table, so the
grader can watch whether the learner's ``run_tool_uses`` follows the data.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from enum import Enum
from itertools import islice
from typing import Any

from .sandbox import plain

__all__ = ["TIERS", "exact_tier", "items", "listed", "odd_tiers", "rewrite", "shape_of", "tier_name"]

TIERS = ("allow", "ask", "deny")
MAX_ITEMS = 1000  # how much of a learner's collection is read before it is called endless


def tier_name(value: Any) -> str | None:
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str) and plain(value).strip().lower() in TIERS:
        return plain(value).strip().lower()
    return None


def exact_tier(value: Any) -> bool:
    """Whether ``value`` is a tier as the exercise spells it: "allow", "ask" or "deny" exactly, or an
    Enum member for one (its members are what the learner's code compares)."""
    if isinstance(value, Enum):
        return tier_name(value) is not None
    return isinstance(value, str) and value in TIERS


def odd_tiers(policy: Any, shape: str, names: Any) -> dict[str, str]:
    """Tool name -> the tier value (shown) for entries whose tier is not spelled exactly as a tier:
    "block", "Deny", "DENY " ... . Fine while the learner's code reads them right; the name of the cause
    when it does not."""
    odd: dict[str, str] = {}
    try:
        if isinstance(policy, Mapping):
            for key in items(policy):
                value = policy[key]
                if isinstance(value, (set, frozenset, list, tuple)):  # tier -> names
                    tier, tools = key, items(value)
                else:  # name -> tier
                    tier, tools = value, [key]
                if tools and not exact_tier(tier) and isinstance(tools[0], str):
                    odd.setdefault(plain(tools[0], 40), plain(repr(tier), 40))
        elif shape == "function":
            for name in names:
                tier = policy(name)
                if isinstance(tier, str) and not exact_tier(tier):
                    odd.setdefault(name, plain(repr(tier), 40))
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        pass  # what could be read is named; the rest is the other checks' to judge
    return odd


def items(collection: Any) -> list:
    items = list(islice(iter(collection), MAX_ITEMS + 1))
    if len(items) > MAX_ITEMS:
        raise ValueError(f"more than {MAX_ITEMS} entries")
    return items


def shape_of(policy: Any) -> tuple[str, str]:
    """How the policy is written: by_name, by_tier, function, empty or something else (and its type)."""
    kind = plain(type(policy).__name__, 40)
    if policy is None:
        return "empty", kind
    if isinstance(policy, Mapping):
        pairs = [(k, policy[k]) for k in items(policy)]
        if not pairs:
            return "empty", kind
        if not hasattr(policy, "__setitem__"):
            return "read_only", kind
        if all(tier_name(k) and isinstance(v, (set, frozenset, list, tuple)) for k, v in pairs):
            return "by_tier", kind
        if all(isinstance(k, str) and tier_name(v) for k, v in pairs):
            return "by_name", kind
        return "mixed", kind
    if callable(policy):
        return "function", kind
    return "other", kind


def listed(policy: Any, shape: str, name: str) -> str | None:
    """The tier the policy data gives ``name``, or None when the data does not name it."""
    try:
        if shape == "by_name":
            return tier_name(policy[name]) if name in policy else None
        if shape == "by_tier":
            return next((tier_name(k) for k in items(policy) if name in items(policy[k])), None)
        if shape == "function":
            return tier_name(policy(name))
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        return None
    return None


def _spellings(policy: Any, shape: str, names: Any) -> dict[str, Any]:
    """For each tier, an object the learner's own data already uses for it (their str, case or Enum)."""
    found: list = []
    if shape == "by_name":
        found = [policy[k] for k in items(policy)]
    elif shape == "by_tier":
        found = items(policy)
    elif shape == "function":
        for name in names:
            try:
                found.append(policy(name))
            except MemoryError:
                raise
            except Exception:
                pass
    spelled = {}
    for value in found:
        tier = tier_name(value)
        if tier and tier not in spelled:
            spelled[tier] = value
    upper = bool(spelled) and all(isinstance(v, str) and v.isupper() for v in spelled.values())
    return {tier: spelled.get(tier, tier.upper() if upper else tier) for tier in TIERS}


def _rebind(run_tool_uses: Callable, old: Any, new: Any) -> None:
    """Point the learner's globals (and the function's closure) that hold ``old`` at ``new``."""
    namespace = getattr(run_tool_uses, "__globals__", None)
    if type(namespace) is dict:
        for key in list(namespace):
            if namespace[key] is old:
                namespace[key] = new
    for cell in getattr(run_tool_uses, "__closure__", None) or ():
        try:
            if cell.cell_contents is old:
                cell.cell_contents = new
        except ValueError:  # an empty cell
            pass


def rewrite(
    policy: Any, shape: str, run_tool_uses: Callable, forced: dict[str, str], in_place: bool = True
) -> Callable[[], None]:
    """Make the learner's policy say ``forced`` (name -> tier), in the learner's own structure.

    In a forked child the object itself is changed, so every reference the learner's code holds
    sees the new table. Where there is no fork (the child is a thread of the caller), a copy is
    changed and bound where ``run_tool_uses`` looks; the returned callable puts the original back.
    """
    spelled = _spellings(policy, shape, forced)
    original = policy
    if not in_place and shape != "function":
        policy = copy.deepcopy(original)
        _rebind(run_tool_uses, original, policy)
    bound = _change(policy, shape, run_tool_uses, forced, spelled)
    return lambda: _rebind(run_tool_uses, bound, original)


def _change(policy: Any, shape: str, run_tool_uses: Callable, forced: dict[str, str], spelled: dict) -> Any:
    """Write ``forced`` into ``policy``; returns what the learner's code now finds (a stand-in for a function)."""
    if shape == "by_name":
        for name, tier in forced.items():
            policy[name] = spelled[tier]
    elif shape == "by_tier":
        keys = {tier_name(k): k for k in items(policy)}
        for tier in TIERS:
            names = [n for n, x in forced.items() if x == tier]
            if tier not in keys:
                policy[spelled[tier]] = set(names)
                continue
            key = keys[tier]
            current = policy[key]
            names = [n for n in items(current) if n not in forced] + names
            if isinstance(current, set):
                current.clear()
                current.update(names)
            elif isinstance(current, list):
                current[:] = names
            else:
                try:
                    policy[key] = type(current)(names)
                except Exception:
                    policy[key] = set(names)
    else:
        original = policy

        def probed(name: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(name, str) and name in forced:
                return spelled[forced[name]]
            return original(name, *args, **kwargs)

        _rebind(run_tool_uses, original, probed)
        return probed
    return policy
