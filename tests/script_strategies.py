"""Hypothesis strategies for scripted model replies, shared by the harness and reliability properties."""

from __future__ import annotations

from hypothesis import strategies as st

from harness_lab.emulator import call, reply


def nested(depth: int) -> dict:
    """A JSON object ``depth`` levels deep (deeper than pydantic serializes: 255)."""
    doc: dict = {}
    for _ in range(depth):
        doc = {"a": doc}
    return doc


def scripted(text: str, calls: list, stop: str | None):
    """A reply: optional text, then calls ``name(n_=k)``, with an explicit stop_reason (None: inferred).

    A call named "deep" also carries a document nested 300 levels deep.
    """
    parts = ([text] if text else []) + [
        call(name, n_=k, **({"doc": nested(300)} if name == "deep" else {})) for name, k in calls
    ]
    return reply(*parts, stop_reason=stop, stop_sequence="###" if stop == "stop_sequence" else None)


def replies(names: list[str], stops: list, texts=("", "考えます", "答えです\n"), min_calls: int = 0):
    """Any reply over the given tool names and stop reasons (repeat an entry to weight it)."""
    return st.builds(
        scripted,
        st.sampled_from(list(texts)),
        st.lists(st.tuples(st.sampled_from(names), st.integers(0, 2)), min_size=min_calls, max_size=3),
        st.sampled_from(stops),
    )
