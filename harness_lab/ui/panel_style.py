"""A panel whose kernel is gone says so and looks dead (the learner's second day).

The widget manager already knows: a widget model with no live connection to a kernel — the
kernel was restarted or shut down, or the notebook was reopened and its models came back from the
saved widget state — has ``comm_live`` false, and ipywidgets puts the class
``jupyter-widgets-disconnected`` on each of its views. A style sheet inside the panel reads that
class: the buttons and fields grey out and stop taking clicks, the per-widget broken-link icons give
way to one line saying what happened and how to get a live panel back. No messages go to the
kernel, so a busy kernel is never mistaken for a dead one.

A static renderer (an untrusted notebook, GitHub, nbconvert) shows the panel's HTML fallback instead,
which says it is a saved record.
"""

from __future__ import annotations

import html

from ..text import t

__all__ = ["stale_html", "static_note"]

_CSS = """
.hl-stepper .jupyter-widgets-disconnected::before { display: none; }
.hl-stepper.jupyter-widgets-disconnected .hl-stale { display: block !important; }
.hl-stepper .hl-stepper.jupyter-widgets-disconnected .hl-stale { display: none !important; }
.hl-stepper.jupyter-widgets-disconnected .widget-button,
.hl-stepper.jupyter-widgets-disconnected .widget-toggle-button,
.hl-stepper.jupyter-widgets-disconnected input,
.hl-stepper.jupyter-widgets-disconnected textarea,
.hl-stepper.jupyter-widgets-disconnected .lm-TabBar-tab {
  opacity: 0.45; pointer-events: none; filter: grayscale(1);
}
.hl-stepper.jupyter-widgets-disconnected .hl-status { opacity: 0.6; }
"""

_LINE = (
    '<div class="hl-stale" style="display:none;border-left:4px solid #888;background:rgba(128,128,128,0.12);'
    'padding:4px 8px;margin:2px 0 6px;font-weight:600">{}</div>'
)


def stale_html() -> str:
    """The style sheet and the hidden line, for an HTML widget inside the panel."""
    return f"<style>{_CSS}</style>" + _LINE.format(html.escape(t("ui.stale.widget")))


def static_note() -> str:
    """The first line of a panel's HTML fallback: what the reader sees is a record, not a live panel."""
    return (
        f'<div class="hl-stale-static" style="font-size:12px;opacity:0.75;margin-bottom:2px">'
        f"{html.escape(t('ui.stale.static'))}</div>"
    )
