"""Exercise level 1, criterion 2's verdict: from the logs the grader kept of each scene (a no, a yes, the deny
alone, the mixed response, an approver that raises or answers None), whether the policy valve asks per
tool_use before the tool runs, reuses ``approve`` and fails closed."""

from __future__ import annotations

from .level1_scene import ASK_PAIRS, _answer, fails_closed
from .spies import Recorder, logged

__all__ = ["verdict2"]


def verdict2(
    ask: str,
    deny: bool,
    tiers: dict,
    given: dict,
    recorders: dict[str, Recorder],
    when_failing: dict,
    rewritten: bool = False,
    said_no_facts: tuple | list = (),
) -> tuple | None:
    said_no, said_yes, alone, mixed = (recorders[tag] for tag in ("no", "yes", "alone", "mixed"))
    approved = ASK_PAIRS[ask][0]
    if deny and (alone.ran("send_email") or mixed.ran("send_email")):
        return "grade.l1.c2.deny_ran", {"tool": "send_email"}
    if not said_no.asked(ask):
        return "grade.l1.c2.not_asked", {}
    if all(e.input != logged(approved) for e in said_no.asked(ask)):  # asked, but not about this call
        return "grade.l1.c2.approve_input", {"tool": ask, "got": said_no.asked(ask)[0].input[:60]}
    if said_no.ran(ask):
        if len(said_no_facts) > 1 and any(f["is_error"] for f in said_no_facts):
            return "grade.l1.fell_through", {"tool": ask}  # a refusal's result, and then the run as well
        key = (
            "grade.l1.c2.refusal_ignored"
            if said_no.asked_before_ran(ask, approved)
            else "grade.l1.c2.ran_before_asking"
        )
        return key, {"tool": ask}
    if said_yes.ran(ask) and not said_yes.asked_before_ran(ask, approved):
        return "grade.l1.c2.ran_before_asking", {"tool": ask}
    if len(said_yes.asked(ask)) > 1:  # one call, put to the person more than once: each question takes an answer
        return "grade.l1.c2.asked_twice", {"tool": ask, "count": len(said_yes.asked(ask))}
    if rewritten and not said_yes.ran(ask):  # the no before it was written into POLICY: the yes found a deny
        return "grade.l1.c2.refusal_rewritten", {"tool": ask}
    if len(said_yes.ran(ask)) != 1:
        return "grade.l1.c2.approved_not_run", {"tool": ask, "count": len(said_yes.ran(ask))}
    if len(mixed.asked(ask)) != 2 or [e.input for e in mixed.ran(ask)] != [logged(approved)]:
        if not mixed.asked(ask) and mixed.ran(ask):  # asked no more at all: the earlier yes was kept
            return ("grade.l1.c2.policy_rewritten" if rewritten else "grade.l1.c2.yes_kept"), {"tool": ask}
        if len(mixed.asked(ask)) == 2 and len(mixed.ran(ask)) == 1:  # the right call ran, with another input
            return "grade.l1.c2.input_changed", {"tool": ask, "got": mixed.ran(ask)[0].input[:60]}
        if len(mixed.asked(ask)) == 2 and len(mixed.ran(ask)) == 2:  # asked each time, the no not followed
            return "grade.l1.c2.answer_reused", {"tool": ask}
        return "grade.l1.c2.per_call", {"tool": ask}
    for name in ("get_time", "read_file"):
        if tiers.get(name) == "allow" and not mixed.ran(name):
            return "grade.l1.c2.allowed_skipped", {"tool": name}
    closed = fails_closed(ask, recorders["failing"], when_failing, recorders["silent"])
    return closed or _answer(given, "step") or _answer(given, "approval")
