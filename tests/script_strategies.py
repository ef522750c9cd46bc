"""Hypothesis strategies for scripted model replies, shared by the harness and reliability properties."""

from __future__ import annotations

from hypothesis import strategies as st

from harness_lab.emulator import call, reply


def scripted(text: str, calls: list, stop: str | None):
    """A reply: optional text, then calls ``name(n_=k)``, with an explicit stop_reason (None: inferred)."""
    parts = ([text] if text else []) + [call(name, n_=k) for name, k in calls]
    return reply(*parts, stop_reason=stop, stop_sequence="###" if stop == "stop_sequence" else None)


def replies(names: list[str], stops: list, texts=("", "考えます", "答えです\n"), min_calls: int = 0):
    """Any reply over the given tool names and stop reasons (repeat an entry to weight it)."""
    return st.builds(
        scripted,
        st.sampled_from(list(texts)),
        st.lists(st.tuples(st.sampled_from(names), st.integers(0, 2)), min_size=min_calls, max_size=3),
        st.sampled_from(stops),
    )
