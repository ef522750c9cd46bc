"""How many examples each property-based test generates: every count, in two profiles, decided here.

``ci`` (the default; ``python3 dev.py test`` and so CI run it) keeps the property tests to a few seconds
each on a 2-core machine. ``HARNESS_LAB_EXAMPLES=full`` runs the counts the reliability suite was first
measured with (docs/reliability.md): run it after a change to the loop, the valves or the emulator.
tests/reliability/test_mutations_are_caught.py shows that the ``ci`` counts still catch the known bugs.

A test's own ``@settings(max_examples=...)`` overrides any hypothesis profile, so each test reads its
count with ``examples(name)``; the profile registered below only gives the default to a ``@given``
test that names no count.
"""

from __future__ import annotations

import os

from hypothesis import settings

VARIABLE = "HARNESS_LAB_EXAMPLES"
PROFILES = ("ci", "full")

# name: (ci, full). A ci count is lowered only as far as test_mutations_are_caught.py still passes.
COUNTS: dict[str, tuple[int, int]] = {
    "history_asked": (60, 600),  # tests/reliability/test_history_properties.py, answered through the generator
    "history_callback": (40, 400),  # the same, answered by an approver callback
    "api_faults": (50, 250),  # tests/reliability/test_api_fault_runs.py
    "input_check": (200, 1500),  # tests/harness/test_input_check.py
    "harness_property": (40, 80),  # tests/harness/test_property.py
    "secret_cuts": (30, 60),  # tests/reliability/test_secret_leaks.py
    "emulator_requests": (50, 150),  # tests/emulator/test_robustness.py, well-formed requests
    "emulator_odd_bodies": (50, 150),  # the same, arbitrary bodies
    "wire_json": (100, 200),  # tests/emulator/test_wire.py
}


def profile() -> str:
    chosen = os.environ.get(VARIABLE, "").strip().lower() or "ci"
    if chosen not in PROFILES:
        raise ValueError(f"{VARIABLE}={chosen!r}: choose one of {', '.join(PROFILES)}")
    return chosen


def examples(name: str) -> int:
    """The number of examples the test called ``name`` generates in this run's profile."""
    ci, full = COUNTS[name]
    return full if profile() == "full" else ci


settings.register_profile("ci", max_examples=50)
settings.register_profile("full", max_examples=100)  # hypothesis's own default
settings.load_profile(profile())
