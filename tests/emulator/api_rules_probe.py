"""Probe: rules of the Messages API as documented or reported live, checked through the real client offline.

Run it by hand (``python -m tests.emulator.api_rules_probe``; not a pytest file: each fix it found has its own
test); it prints one line per rule, ``ok`` or ``DIFFERS``, with its source keys from docs/api_facts.md
("Checked on 2026-12-07 (round four)"), and ends with the count. Every rule here is one that rounds one to
three did not check; their probes were not kept.
"""

from __future__ import annotations

from tests.emulator import api_rules_probe_replies, api_rules_probe_requests  # noqa: F401 (each registers its rules)
from tests.emulator.api_rules_probe_kit import RULES


def main() -> int:
    held = 0
    for doc, source, check in RULES:
        try:
            ok = check()
        except Exception as exc:  # a probe that crashes is a disagreement too
            ok, doc = False, f"{doc} ({type(exc).__name__}: {exc})"[:300]
        held += ok
        print(f"{'ok     ' if ok else 'DIFFERS'} [{source}] {doc}")
    print(f"{held}/{len(RULES)} held")
    return 0 if held == len(RULES) else 1


if __name__ == "__main__":
    raise SystemExit(main())
