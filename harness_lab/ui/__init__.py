"""Jupyter UI on top of the core (layer 5): block cards, the Stepper (a Controller with widgets), the loop
diagram, plots.

``import harness_lab`` never imports this package; notebooks do ``from harness_lab import ui``.
Importing it also teaches IPython to draw the loop's events (Turn, ApprovalRequest, Finished,
Stopped, Usage, Decision) as cards, so a bare event at the end of a cell shows as a card.
"""

from typing import TYPE_CHECKING, Any

from . import catalog  # noqa: F401  # the layer's strings, before any module uses them
from .cards import Card
from .controller import Controller
from .diagram import LoopDiagram, diagram
from .formatters import register_formatters
from .stepper import Stepper
from .transcript import card, transcript

__all__ = [
    "Card",
    "Controller",
    "LoopDiagram",
    "Stepper",
    "card",
    "compare_runs",
    "diagram",
    "plot_token_burn",
    "register_formatters",
    "transcript",
]

register_formatters()

if TYPE_CHECKING:
    from .plots import compare_runs, plot_token_burn


def __getattr__(name: str) -> Any:
    # matplotlib (about 45 MB) loads with the first plot, not with the Stepper: every process that forks
    # a child per check (the lessons' and the graders') copies less, and a kernel starts sooner.
    if name in ("compare_runs", "plot_token_burn"):
        from . import plots

        return getattr(plots, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
