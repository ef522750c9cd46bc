"""Probe: rules of the Messages API as documented or reported live, checked through the real client offline.

Run it by hand (``python -m tests.emulator.api_rules_probe``; not a pytest file: each fix it found has its own
test); it prints one line per rule, ``ok`` or ``DIFFERS``, with its source keys from docs/api_facts.md
("Checked on 2026-12-07 (round four)" to "(round seven)"), and ends with the count; a per-model rule lists each
model whose answer differs. Every rule is one that the rounds before it did not check (rounds one to three's probes
were not kept): round four's in ``..._requests.py`` and ``..._replies.py``, round five's in ``..._loop.py``,
``..._models.py`` and ``..._shapes.py``, round six's at the end of ``..._shapes.py``, round seven's
(``cited_text_in_blocks``) in ``..._replies.py``.
"""

from __future__ import annotations

from tests.emulator import (  # noqa: F401 (each registers its rules)
    api_rules_probe_loop,
    api_rules_probe_models,
    api_rules_probe_replies,
    api_rules_probe_requests,
    api_rules_probe_shapes,
)
from tests.emulator.api_rules_probe_kit import MISSES, RULES


def main() -> int:
    held = 0
    for doc, source, check in RULES:
        doc = " ".join(doc.split())
        try:
            ok = check()
        except Exception as exc:  # a probe that crashes is a disagreement too
            ok, doc = False, f"{doc} ({type(exc).__name__}: {exc})"[:300]
        held += ok
        print(f"{'ok     ' if ok else 'DIFFERS'} [{source}] {doc}")
        for miss in MISSES.get(check.__name__, ()):
            print(f"          {miss}")
    print(f"{held}/{len(RULES)} held")
    return 0 if held == len(RULES) else 1


if __name__ == "__main__":
    raise SystemExit(main())
