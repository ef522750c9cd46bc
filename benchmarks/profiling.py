"""pyinstrument profiles for a goal that was missed: where the extra time goes.

Two views of one profiled run: the frames with the most self time (the hot spots, wherever they
are), and the functions of a chosen package (``harness_lab.``) with the most cumulative time,
which is what the package adds on top of the SDK (its emulator left out: every contender pays that).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Hot:
    seconds: float
    share: float
    where: str


def _label(frame) -> str:
    return f"{frame.function} ({frame.file_path_short}:{frame.line_no})"


def profile(
    runs: Callable[[], object] | list[Callable[[], object]],
    top: int = 10,
    package: str = "harness_lab",
    shared: str = "emulator",
) -> dict[str, list[Hot]]:
    """Profile ``runs`` (one callable or several, called in turn in one session).

    Returns the ``self`` and ``package`` top-frame lists. pyinstrument samples wall time, so on a
    busy machine one preempted moment can dominate a single run: profiling a few runs together
    dilutes it. The package view leaves out ``package/shared/`` (the emulator), which every
    contender pays.
    """
    from pyinstrument import Profiler  # imported when used, as pydantic_agent imports pydantic-ai

    runs = runs if isinstance(runs, list) else [runs]
    profiler = Profiler(interval=0.0002)
    profiler.start()
    for run in runs:
        run()
    profiler.stop()
    root = profiler.last_session.root_frame()
    total = root.time or 1e-12
    self_time: dict[str, float] = defaultdict(float)
    cumulative: dict[str, float] = defaultdict(float)

    def walk(frame, on_stack: frozenset) -> None:
        if frame.is_synthetic:  # "[self]" leaves: already inside their parent's total_self_time
            return
        label = _label(frame)
        self_time[label] += frame.total_self_time
        path = frame.file_path or ""
        # Count a function once per stack, so recursion does not double its cumulative time.
        if f"/{package}/" in path and f"/{package}/{shared}/" not in path and label not in on_stack:
            cumulative[label] += frame.time
            on_stack = on_stack | {label}
        for child in frame.children:
            walk(child, on_stack)

    walk(root, frozenset())

    def ranked(table: dict[str, float]) -> list[Hot]:
        best = sorted(table.items(), key=lambda kv: kv[1], reverse=True)[:top]
        return [Hot(seconds, seconds / total, where) for where, seconds in best]

    return {"self": ranked(self_time), "package": ranked(cumulative)}


def as_text(hots: list[Hot]) -> str:
    return "\n".join(f"{h.share * 100:5.1f}%  {h.seconds * 1000:7.1f} ms  {h.where}" for h in hots)
