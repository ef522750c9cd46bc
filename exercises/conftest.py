"""Grading these notebooks with nbval: a pass that carries advice still matches the stored feedback.

The stored grade output is the reference solution's, with no warning. A learner whose answer meets a
criterion but earns advice (a default tier of "allow") sees the advice in the notebook; nbval
compares the feedback without it, so the answer passes, as the curriculum says it should. A sanitize
file given on the command line wins.
"""

from __future__ import annotations

from pathlib import Path


def pytest_configure(config):
    if getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(Path(__file__).with_name("sanitize.cfg"))
